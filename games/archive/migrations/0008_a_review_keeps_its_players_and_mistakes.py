"""A review keeps its match's players (a player's accuracy without joining the matches) and
its tagged decisions (a replay's mistakes without reading every reviewed hand)."""

import django.db.models.deletion
from django.db import migrations, models

BATCH = 500


def copy_players_and_mistakes(apps, schema_editor):
    MatchReview = apps.get_model("archive", "MatchReview")
    ReviewedHand = apps.get_model("archive", "ReviewedHand")
    reviews = MatchReview.objects.select_related("match").only("id", "status", "hand_count", "match__player0_id",
                                                               "match__player1_id")
    changed = []
    for review in reviews.iterator(chunk_size=BATCH):
        review.player0_id, review.player1_id = review.match.player0_id, review.match.player1_id
        if review.status == "ready":
            hands = ReviewedHand.objects.filter(review_id=review.id, number__lte=review.hand_count).order_by("number")
            review.mistakes = [{**decision, "hand": hand.number} for hand in hands for decision in hand.decisions
                               if decision["tag"]]
        changed.append(review)
        if len(changed) == BATCH:
            MatchReview.objects.bulk_update(changed, ["player0", "player1", "mistakes"])
            changed = []
    MatchReview.objects.bulk_update(changed, ["player0", "player1", "mistakes"])


class Migration(migrations.Migration):

    dependencies = [
        ("archive", "0007_a_match_may_end_out_of_time"),
    ]

    operations = [
        migrations.AddField(
            model_name="matchreview",
            name="player0",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="archive.player"),
        ),
        migrations.AddField(
            model_name="matchreview",
            name="player1",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="archive.player"),
        ),
        migrations.AddField(
            model_name="matchreview",
            name="mistakes",
            field=models.JSONField(default=list),
        ),
        migrations.RunPython(copy_players_and_mistakes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="matchreview",
            name="player0",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="archive.player"),
        ),
        migrations.AlterField(
            model_name="matchreview",
            name="player1",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="archive.player"),
        ),
    ]
