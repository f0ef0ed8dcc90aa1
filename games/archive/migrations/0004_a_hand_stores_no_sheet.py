"""A hand stores no sheet: the sheet after each hand follows from the match's final sheet
(ArchivedMatch.sheets_after_each_hand). Stored, a match's sheets grew with the square of its
hands: 70 % of a 31-hand match's JSON, 36 % of a hand's row on PostgreSQL (639 of 1,781 bytes
on average over 1.5 million hands: jsonb compresses the longer sheets).

Forward, the column is dropped (on PostgreSQL a change of the catalog only; the space is
reused as rows are rewritten, or at once with VACUUM FULL). Backward, it is filled again
from each match's sheet, as the engine made it when the match was recorded.
"""

from django.db import migrations, models

from games.engine import ScoreSheet, scoring_mode


def store_sheets(apps, schema_editor):
    ArchivedHand = apps.get_model("archive", "ArchivedHand")
    ArchivedMatch = apps.get_model("archive", "ArchivedMatch")
    with_hands = ArchivedMatch.objects.filter(hands__number=1, sheet__isnull=False).distinct().only("id", "sheet")
    for archived in with_hands.iterator(chunk_size=500):
        final = archived.sheet
        sheet = ScoreSheet(scoring_mode(final["scoring"]), final["target"])
        after = []
        for row in final["hands"]:
            sheet.record(row["winner"], row["points"])
            after.append(sheet.to_dict())
        hands = list(ArchivedHand.objects.filter(match_id=archived.pk).only("id", "number"))
        for hand in hands:
            hand.sheet = after[hand.number - 1]
        ArchivedHand.objects.bulk_update(hands, ["sheet"])


class Migration(migrations.Migration):

    dependencies = [
        ("archive", "0003_moves_played_by_the_clock"),
    ]

    operations = [
        # Nullable first, so that going back can add the column before it is filled.
        migrations.AlterField(model_name="archivedhand", name="sheet", field=models.JSONField(null=True)),
        migrations.RunPython(migrations.RunPython.noop, reverse_code=store_sheets),
        migrations.RemoveField(model_name="archivedhand", name="sheet"),
    ]
