"""The ratings' models move here from ``tournaments`` with their tables: the state only
(``SeparateDatabaseAndState``; each model keeps its ``tournaments_…`` table, so no row is
copied), and their content types (with the permissions on them) follow. On a fresh database
the tables were made by tournaments 0004/0010/0012; ``tournaments 0013`` then drops the models
from that app's state."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ("ratingstate", "ratinggame", "ratingchange", "leagueratingdecision", "playerrating")


def _content_types(source: str, target: str):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        taken = set(
            ContentType.objects.using(db)
            .filter(app_label=target, model__in=MODELS)
            .values_list("model", flat=True)
        )
        ContentType.objects.using(db).filter(app_label=source, model__in=MODELS).exclude(
            model__in=taken
        ).update(app_label=target)

    return move


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tournaments', '0012_rated_leagues'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                        migrations.CreateModel(
                            name='RatingState',
                            fields=[
                                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                                ('applied_through', models.PositiveBigIntegerField(default=0, help_text='highest rating sequence applied')),
                                ('needs_recompute', models.BooleanField(default=False)),
                                ('games_rated', models.PositiveIntegerField(default=0)),
                                ('recomputed_at', models.DateTimeField(blank=True, null=True)),
                                ('updated_at', models.DateTimeField(auto_now=True)),
                            ],
                            options={
                                'db_table': 'tournaments_ratingstate',
                            },
                        ),
                        migrations.CreateModel(
                            name='RatingGame',
                            fields=[
                                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                                ('places', models.JSONField(blank=True, null=True)),
                                ('skip_reason', models.CharField(blank=True, max_length=100)),
                                ('applied', models.BooleanField(default=False)),
                                ('played_at', models.DateTimeField(help_text='when the result first counted')),
                                ('revision', models.PositiveIntegerField(default=0, help_text='raised by every change of the places; the ratings task marks a game applied only at the revision it rated (a correction meanwhile leaves it pending)')),
                                ('fixture', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='rating_game', to='tournaments.fixture')),
                                ('result', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.result')),
                            ],
                            options={
                                'db_table': 'tournaments_ratinggame',
                                'ordering': ['id'],
                            },
                        ),
                        migrations.CreateModel(
                            name='RatingChange',
                            fields=[
                                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                                ('sequence', models.PositiveBigIntegerField()),
                                ('place', models.PositiveSmallIntegerField()),
                                ('mu_before', models.FloatField()),
                                ('sigma_before', models.FloatField()),
                                ('mu_after', models.FloatField()),
                                ('sigma_after', models.FloatField()),
                                ('display_before', models.IntegerField()),
                                ('display_after', models.IntegerField()),
                                ('win_probability', models.FloatField(help_text='the forecast before the game')),
                                ('played_at', models.DateTimeField()),
                                ('fixture', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.fixture')),
                                ('player', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='tournaments.player')),
                                ('game', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='changes', to='ratings.ratinggame')),
                            ],
                            options={
                                'db_table': 'tournaments_ratingchange',
                                'ordering': ['player', 'sequence'],
                            },
                        ),
                        migrations.CreateModel(
                            name='LeagueRatingDecision',
                            fields=[
                                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                                ('state', models.CharField(choices=[('requested', 'requested'), ('approved', 'approved'), ('refused', 'refused'), ('revoked', 'revoked')], default='requested', max_length=10)),
                                ('requested_at', models.DateTimeField(blank=True, null=True)),
                                ('note', models.CharField(blank=True, help_text="the organizer's request", max_length=500)),
                                ('decided_at', models.DateTimeField(blank=True, null=True)),
                                ('reason', models.CharField(blank=True, max_length=500)),
                                ('decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                                ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_decisions', to='tournaments.league')),
                                ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                            ],
                            options={
                                'db_table': 'tournaments_leagueratingdecision',
                                'ordering': ['-id'],
                                'constraints': [models.UniqueConstraint(condition=models.Q(('state', 'requested')), fields=('league',), name='one_open_rating_request_per_league')],
                            },
                        ),
                        migrations.CreateModel(
                            name='PlayerRating',
                            fields=[
                                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                                ('mu', models.FloatField()),
                                ('sigma', models.FloatField()),
                                ('display', models.IntegerField(help_text='round(1000 + 40 × (mu − 3 sigma))')),
                                ('games', models.PositiveIntegerField(default=0)),
                                ('last_played_at', models.DateTimeField(blank=True, null=True)),
                                ('player', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='rating', to='tournaments.player')),
                            ],
                            options={
                                'db_table': 'tournaments_playerrating',
                                'ordering': ['-display', 'player__name'],
                                'indexes': [models.Index(fields=['-display'], name='playerrating_display')],
                            },
                        ),
                        migrations.AddIndex(
                            model_name='ratinggame',
                            index=models.Index(fields=['applied'], name='ratinggame_applied'),
                        ),
                        migrations.AddIndex(
                            model_name='ratingchange',
                            index=models.Index(fields=['player', 'sequence'], name='ratingchange_player_seq'),
                        ),
                        migrations.AddConstraint(
                            model_name='ratingchange',
                            constraint=models.UniqueConstraint(fields=('game', 'player'), name='ratingchange_unique_player'),
                        ),
            ],
        ),
        migrations.RunPython(
            _content_types("tournaments", "ratings"), _content_types("ratings", "tournaments")
        ),
    ]
