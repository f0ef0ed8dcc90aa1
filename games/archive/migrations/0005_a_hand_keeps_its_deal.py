"""A hand keeps its deal: the commitment, the revealed seed and both contributions, so that
anyone can recompute its deck (docs/fairness.md). Hands archived before have none (null)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("archive", "0004_a_hand_stores_no_sheet"),
    ]

    operations = [
        migrations.AddField(model_name="archivedhand", name="deal", field=models.JSONField(blank=True, null=True)),
    ]
