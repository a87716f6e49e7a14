"""Generated multi-module projects of jaxtypes classes and the edits applied to them.

A project is 2-3 modules holding static and pytree classes whose fields name each other across
modules through ``import <module> as <alias>``. Edits add or remove a field, change a field's
type, move a class to another module (every reference follows) and rename a module's import
alias. The project is a plain model rendered to text, so an edit is a change of the model.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Union

from hypothesis import strategies as st

FieldType = tuple[str, str]
"""``("leaf", annotation)``, ``("ref", class)`` or ``("static", class)`` (``Static[class]``)."""

LEAVES = ("int", "str", "list[int]", "tuple[int, ...]", "Dynamic[int]", "Local", "Optional[Local]")


@dataclasses.dataclass
class ClassModel:
    name: str
    module: int
    kind: str
    fields: list[tuple[str, FieldType]]


@dataclasses.dataclass
class Project:
    prefix: str
    aliases: list[str]
    classes: list[ClassModel]

    def module(self, index: int) -> str:
        return f"{self.prefix}_m{index}"

    def files(self) -> list[str]:
        return [f"{self.module(i)}.py" for i in range(len(self.aliases))]

    def render(self, index: int) -> str:
        """The text of module ``index``."""
        where = {c.name: c.module for c in self.classes}
        imported = sorted(
            {
                where[t[1]]
                for c in self.classes
                if c.module == index
                for _, t in c.fields
                if t[0] != "leaf" and where[t[1]] != index
            }
        )
        lines = [
            "from __future__ import annotations",
            "from typing import Optional",
            "from jaxtypes import Dynamic, Static, pytree_dataclass, static_dataclass",
            *(f"import {self.module(j)} as {self.aliases[j]}" for j in imported),
            "",
            "class Local:",
            "    pass",
        ]
        for c in self.classes:
            if c.module != index:
                continue
            lines += ["", f"@{c.kind}_dataclass", f"class {c.name}:"]
            lines += [f"    {name}: {self._annotation(t, index, where)}" for name, t in c.fields] or ["    pass"]
        return "\n".join(lines) + "\n"

    def _annotation(self, typ: FieldType, index: int, where: dict[str, int]) -> str:
        kind, value = typ
        if kind == "leaf":
            return value
        module = where[value]
        name = value if module == index else f"{self.aliases[module]}.{value}"
        return f"Static[{name}]" if kind == "static" else name


Edit = Union[tuple[str, int, FieldType], tuple[str, int, int], tuple[str, int]]


def apply(project: Project, edit: Edit, serial: int) -> None:
    """Change the model by one edit; ``serial`` makes new field and alias names unique."""
    kind, index, *rest = edit
    if kind == "alias":
        project.aliases[index % len(project.aliases)] = f"alias{serial}"
        return
    target = project.classes[index % len(project.classes)]
    if kind == "move":
        target.module = rest[0] % len(project.aliases)  # type: ignore[operator]
    elif kind == "remove" and target.fields:
        target.fields.pop()
    elif kind == "retype" and target.fields:
        target.fields[0] = (target.fields[0][0], rest[0])  # type: ignore[assignment]
    elif kind in ("add", "retype"):
        target.fields.append((f"f{serial}", rest[0]))  # type: ignore[arg-type]


def write(directory: Path, project: Project, step: int) -> None:
    """Write every module whose text changed, with an mtime ``step`` seconds ahead, so that
    mypy and the daemon see the edit however fast it follows the last one."""
    for index, name in enumerate(project.files()):
        path = directory / name
        text = project.render(index)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            stamp = path.stat().st_mtime + 2 * step
            os.utime(path, (stamp, stamp))


def _field_types(names: list[str]) -> st.SearchStrategy[FieldType]:
    return st.one_of(
        st.tuples(st.just("leaf"), st.sampled_from(LEAVES)),
        st.tuples(st.sampled_from(["ref", "static"]), st.sampled_from(names)),
    )


@st.composite
def sequences(draw: st.DrawFn, prefix: str, edits: int) -> tuple[Project, list[Edit]]:
    """A project and ``edits`` edits of it."""
    modules = draw(st.integers(2, 3))
    names = [f"K{i}" for i in range(draw(st.integers(2, 4)))]
    types = _field_types(names)
    classes = [
        ClassModel(
            name,
            draw(st.integers(0, modules - 1)),
            draw(st.sampled_from(["static", "pytree"])),
            [(f"{name.lower()}_{j}", draw(types)) for j in range(draw(st.integers(0, 2)))],
        )
        for name in names
    ]
    index = st.integers(0, 9)
    edit = st.one_of(
        st.tuples(st.sampled_from(["add", "retype"]), index, types),
        st.tuples(st.just("remove"), index),
        st.tuples(st.just("move"), index, index),
        st.tuples(st.just("alias"), index),
    )
    project = Project(prefix, [f"m{i}" for i in range(modules)], classes)
    return project, draw(st.lists(edit, min_size=edits, max_size=edits))
