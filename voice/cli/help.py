"""``--help`` in the console's language: every command's and option's text comes from
``voice/output/prompts/<lang>/cli.yaml``, none from Python.

The parser is built without help texts; :func:`localise` then walks it and fills them in.
An option's text is the key ``help_<command path>_<dest>`` (``help_models_check_model``),
falling back to shorter paths down to ``help_<dest>``; a command's is
``cmd_<path>_<name>`` (``cmd_play_farben``). Blanks: ``{default}`` and ``{choices}`` of
the option, and the constants handed in (``{rate_low}``, ...). The names in the usage
lines (``FILE``, ``GAME``) are translated by the table ``_metavars``. Options without a
key keep what Python says (the developers' ``bench``, in English).

argparse's own words ("usage:", "options:", its error messages) are asked from gettext;
:func:`argparse_gettext` answers from the table ``_argparse`` of the same file.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from voice.output.messages import console_text, console_words_table, has_console_text


def help_keys(path: tuple[str, ...], dest: str) -> list[str]:
    """The keys tried for option ``dest`` of the command ``path``, most specific first."""
    return ["_".join(("help", *path[:i], dest)) for i in range(len(path), -1, -1)]


def command_key(path: tuple[str, ...], name: str) -> str:
    return "_".join(("cmd", *path, name))


def _text(key: str, blanks: Mapping[str, Any]) -> str:
    # argparse fills in %(default)s etc. itself, so a plain % must be doubled
    return console_text(key, **blanks).replace("%", "%%")


def _shown(value: Any) -> str:
    if isinstance(value, list | tuple | range):
        return ", ".join(str(v) for v in value) if len(value) < 10 else ""
    return "" if value is None or value is False else str(value)


def localise(
    parser: argparse.ArgumentParser,
    blanks: Mapping[str, Any],
    path: tuple[str, ...] = (),
) -> None:
    """Fill in the help texts and usage names of ``parser`` and its sub-commands."""
    metavars = console_words_table("_metavars")
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            listed = {choice.dest: choice for choice in action._choices_actions}
            action._choices_actions = []
            for name in action.choices:  # every command is listed, in the order added
                key = command_key(path, name)
                choice = listed.get(name)
                if choice is None and has_console_text(key):
                    choice = action._ChoicesPseudoAction(name, (), None)
                if choice is not None:
                    if has_console_text(key):
                        choice.help = _text(key, blanks)
                    action._choices_actions.append(choice)
            for name, sub in action.choices.items():
                key = command_key(path, name)
                if sub.description is None and has_console_text(key):
                    sub.description = _text(key, blanks)
                localise(sub, blanks, (*path, name))
        elif action.help is not argparse.SUPPRESS:
            values = {
                **blanks,
                "default": _shown(action.default),
                "choices": _shown(action.choices),
            }
            found = next((k for k in help_keys(path, action.dest) if has_console_text(k)), None)
            if found is not None:
                action.help = _text(found, values)
        shown = action.metavar
        if shown is None and not isinstance(action, argparse._SubParsersAction):
            if action.choices is None and action.nargs != 0:
                shown = action.dest.upper() if action.option_strings else action.dest
        if isinstance(shown, str) and shown in metavars:
            action.metavar = metavars[shown]
    if not path and has_console_text("about"):
        parser.description = _text("about", blanks)


def argparse_gettext(message: str) -> str:
    """argparse's own messages (it asks gettext for them) in the console's language."""
    return console_words_table("_argparse").get(message, message)


def argparse_ngettext(singular: str, plural: str, count: int) -> str:
    return argparse_gettext(singular if count == 1 else plural)


def install_argparse_translation() -> None:
    """Make argparse ask :func:`argparse_gettext` (its module-level gettext hooks)."""
    argparse._ = argparse_gettext  # type: ignore[attr-defined]
    argparse.ngettext = argparse_ngettext  # type: ignore[attr-defined]
