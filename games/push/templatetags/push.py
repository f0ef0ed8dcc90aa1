from django import template
from django.templatetags.static import static
from django.urls import reverse

from games.push import keys

register = template.Library()


@register.inclusion_tag("push/button.html")
def notify_button(code):
    """The "Notify me" button of a seated player's table page, where push notices are set up."""
    if not keys.is_configured():
        return {}
    return {"key": keys.public_key(), "url": reverse("push:subscribe", kwargs={"code": code}),
            "worker": static("js/push-sw.js")}
