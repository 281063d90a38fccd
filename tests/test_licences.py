"""farbspiel is GPL-3.0-or-later; every runtime dependency must be combinable with that.

The runtime requirements are read from pyproject.toml (the source of truth, so a stale
editable install does not hide a new one), then walked recursively through the installed
packages' metadata (importlib.metadata). Each package's licence is taken from its
License-Expression (SPDX), else its "License ::" classifiers, else its short License field.
A package whose licence cannot be read, or that is not on the allow list, fails the test by
name: decide about it, then add its licence here with the reason.
"""

from __future__ import annotations

import importlib.metadata as metadata
import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
OWN_LICENCE = "GPL-3.0-or-later"

# SPDX identifiers whose code may be combined into a GPL-3.0-or-later program (permissive
# licences, the weak copylefts that allow it, and GPL-3 itself). Not here on purpose:
# GPL-2.0-only (incompatible with GPL-3), proprietary or non-commercial licences.
COMPATIBLE = frozenset(
    {
        "0BSD",
        "Apache-2.0",
        "BSD-2-Clause",
        "BSD-3-Clause",
        "CC0-1.0",
        "HPND",
        "ISC",
        "MIT",
        "MIT-0",
        "MIT-CMU",
        "Zlib",
        "Unlicense",
        "PSF-2.0",
        "Python-2.0",
        "MPL-2.0",  # its secondary-licence clause allows the GPL
        "LGPL-2.1-only",
        "LGPL-2.1-or-later",
        "LGPL-3.0-only",
        "LGPL-3.0-or-later",
        "GPL-2.0-or-later",
        "GPL-3.0-only",
        "GPL-3.0-or-later",
    }
)

# Trove classifiers ("License :: ...") and short free-text License fields, as SPDX ids.
ALIASES = {
    "OSI Approved :: MIT License": "MIT",
    "OSI Approved :: BSD License": "BSD-3-Clause",
    "OSI Approved :: ISC License (ISCL)": "ISC",
    "OSI Approved :: Apache Software License": "Apache-2.0",
    "OSI Approved :: Python Software Foundation License": "PSF-2.0",
    "OSI Approved :: Mozilla Public License 2.0 (MPL 2.0)": "MPL-2.0",
    "OSI Approved :: Mozilla Public License 1.1 (MPL 1.1)": "MPL-1.1",  # pyphen: also (L)GPL
    "OSI Approved :: GNU Lesser General Public License v3 (LGPLv3)": "LGPL-3.0-only",
    "OSI Approved :: GNU Lesser General Public License v3 or later (LGPLv3+)": "LGPL-3.0-or-later",
    "OSI Approved :: GNU Lesser General Public License v2 or later (LGPLv2+)": "LGPL-2.1-or-later",
    "OSI Approved :: GNU General Public License v3 (GPLv3)": "GPL-3.0-only",
    "OSI Approved :: GNU General Public License v3 or later (GPLv3+)": "GPL-3.0-or-later",
    "OSI Approved :: GNU General Public License v2 (GPLv2)": "GPL-2.0-only",
    "OSI Approved :: GNU General Public License v2 or later (GPLv2+)": "GPL-2.0-or-later",
    "MIT": "MIT",
    "BSD": "BSD-3-Clause",
    "PSFL": "PSF-2.0",
    "GPLv3": "GPL-3.0-only",
    "GPLv3+": "GPL-3.0-or-later",
}


def expression_is_compatible(expression: str) -> bool:
    """True when an SPDX expression can be combined with GPL-3.0-or-later.

    AND needs every part, OR needs one; "X WITH exception" counts as X (exceptions only
    add permissions). Unknown identifiers are incompatible."""
    alternatives = re.split(r"\s+OR\s+", expression.replace("(", " ").replace(")", " ").strip())
    return any(
        all(
            re.split(r"\s+WITH\s+", part.strip())[0].strip() in COMPATIBLE
            for part in re.split(r"\s+AND\s+", alternative)
        )
        for alternative in alternatives
    )


def licence_of(dist: metadata.Distribution) -> str | None:
    """The dependency's licence as an SPDX expression, or None when it cannot be read."""
    meta = dist.metadata
    expression = meta.get("License-Expression")
    if expression:
        return expression.strip()
    classifiers = [
        c.removeprefix("License :: ").strip()
        for c in meta.get_all("Classifier") or []
        if c.startswith("License :: ")
    ]
    known = [ALIASES.get(c) for c in classifiers]
    if known and all(known):
        return " OR ".join(k for k in known if k)  # several classifiers: dual licensing
    text = (meta.get("License") or "").strip()
    if text in ALIASES:
        return ALIASES[text]
    if re.fullmatch(r"[A-Za-z0-9.+\- ()]{2,60}", text) and text.upper() != "UNKNOWN":
        return text  # an SPDX expression in the old field ("MPL-2.0 AND MIT")
    return None


def runtime_requirements() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return list(project["dependencies"])


def runtime_distributions() -> dict[str, metadata.Distribution]:
    """Every installed package farbspiel needs at run time, found by walking requirements."""
    found: dict[str, metadata.Distribution] = {}
    todo = runtime_requirements()
    while todo:
        requirement = Requirement(todo.pop())
        if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
            continue
        try:
            dist = metadata.distribution(requirement.name)
        except metadata.PackageNotFoundError:
            pytest.fail(f"runtime dependency {requirement.name} is not installed: run ./setup.sh")
        name = (dist.metadata["Name"] or requirement.name).lower().replace("_", "-")
        if name not in found:
            found[name] = dist
            todo.extend(dist.requires or [])
    return found


def test_farbspiel_is_gpl3_or_later():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == OWN_LICENCE
    licence_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "GNU GENERAL PUBLIC LICENSE" in licence_text
    assert "Version 3, 29 June 2007" in licence_text
    assert OWN_LICENCE in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_runtime_dependency_can_be_combined_with_gpl3():
    dists = runtime_distributions()
    # the walk reaches the GPL-3.0 and LGPL-3.0 code the licence is chosen for
    assert {"praat-parselmouth", "fpdf2", "pyttsx3", "vosk"} <= set(dists)
    problems = []
    for name, dist in sorted(dists.items()):
        licence = licence_of(dist)
        if licence is None:
            problems.append(f"{name} {dist.version}: licence unreadable from its metadata")
        elif not expression_is_compatible(licence):
            problems.append(f"{name} {dist.version}: {licence!r} not known to combine with GPL-3")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("expression", "compatible"),
    [
        ("MIT", True),
        ("BSD-3-Clause AND 0BSD AND MIT AND Zlib AND CC0-1.0", True),
        ("LGPL-3.0-only", True),
        ("GPL-2.0-only", False),
        ("MIT AND GPL-2.0-only", False),
        ("GPL-2.0-only OR MIT", True),
        ("Apache-2.0 WITH LLVM-exception", True),
        ("LicenseRef-Proprietary", False),
        ("CC-BY-NC-4.0", False),
    ],
)
def test_expression_check(expression, compatible):
    assert expression_is_compatible(expression) is compatible


def test_unreadable_licence_is_reported():
    class Blank(metadata.Distribution):
        def read_text(self, filename):
            if filename != "METADATA":
                return None
            return "Metadata-Version: 2.1\nName: blank\nVersion: 1\nLicense: UNKNOWN\n"

        def locate_file(self, path):
            return Path(path)

    assert licence_of(Blank()) is None
