from django.urls import path
from django.views.generic import TemplateView

app_name = "rules"

urlpatterns = [
    path("", TemplateView.as_view(template_name="rules/home.html"), name="home"),
]
