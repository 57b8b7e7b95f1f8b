"""Adapters to the AI ecosystem (optional extra ``ai``), for any game that gives an encoder
(``encoding``: the protocol): a PettingZoo environment (``pettingzoo_env``), an OpenSpiel
game (``openspiel_game``), a generic stepper of the game's engine (``stepper``), an OpenSpiel
search bot as a strategy (``challenger``) and a trained policy as one (``agent``). Nothing
here is imported by ``import simulate``, nor imports a game's package; docs/ai.md."""
