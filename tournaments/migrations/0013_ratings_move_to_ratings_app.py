"""The ratings' models leave this app's state for the ratings app (``ratings 0001``, which
runs first): their tables stay where they are (``db_table``), nothing in the database
changes."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0012_rated_leagues'),
        ('ratings', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(
                    model_name='leagueratingdecision',
                    name='decided_by',
                ),
                migrations.RemoveField(
                    model_name='leagueratingdecision',
                    name='league',
                ),
                migrations.RemoveField(
                    model_name='leagueratingdecision',
                    name='requested_by',
                ),
                migrations.RemoveField(
                    model_name='playerrating',
                    name='player',
                ),
                migrations.RemoveField(
                    model_name='ratingchange',
                    name='fixture',
                ),
                migrations.RemoveField(
                    model_name='ratingchange',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='ratingchange',
                    name='player',
                ),
                migrations.RemoveField(
                    model_name='ratinggame',
                    name='fixture',
                ),
                migrations.RemoveField(
                    model_name='ratinggame',
                    name='result',
                ),
                migrations.DeleteModel(
                    name='RatingState',
                ),
                migrations.DeleteModel(
                    name='LeagueRatingDecision',
                ),
                migrations.DeleteModel(
                    name='PlayerRating',
                ),
                migrations.DeleteModel(
                    name='RatingChange',
                ),
                migrations.DeleteModel(
                    name='RatingGame',
                ),
            ],
        ),
    ]
