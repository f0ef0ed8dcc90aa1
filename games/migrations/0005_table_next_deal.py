"""The next hand's deal waits on the table's row (docs/fairness.md): its seed, committed to
before the deal, and the seats' contributions."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0004_move_table_uses_the_version_index"),
    ]

    operations = [
        migrations.AddField(model_name="table", name="next_deal", field=models.JSONField(blank=True, null=True)),
    ]
