"""Adapters to the AI ecosystem (optional extra ``ai``): a PettingZoo environment
(``pettingzoo_env``), an OpenSpiel game (``openspiel_game``) and an OpenSpiel search bot as a
strategy (``challenger``). Nothing here is imported by ``import simulate``; docs/ai.md."""
