def test_it_redirects_the_root_to_english_by_default(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"] == "/en/"
