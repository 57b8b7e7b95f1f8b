"""Rule variants, for any game: small TOML files that overlay the game's base data before it is
compiled, so that a designer asks "what if the Forts cost two dice?" without editing the data.

A game describes its files with a :class:`VariantFormat`: the folder of its built-in variants,
the description of its implicit base (no overlay), a pydantic model of a file (every key and its
range; ``Section`` and the types below keep TOML's types strict: ``true`` is not an integer) and
a hook that reads, from the game's raw data, the names a file may use (spaces, pieces, flags).
Vijayanagara's is ``simulate.vijayanagara.variant_schema``, which also overlays the raw data.

Files are read with ``tomllib``; nothing in them is ever executed, and the model only checks
them: ``Variant.content`` is the dict as read. Every problem is a one-line :class:`DataError`
naming the file and the dotted path of the first bad key or value in the file's order, e.g.
``my.toml: combat.attack_dice: must be 1..6`` (``one_line`` turns pydantic's errors into it).
Names are checked when a variant is applied to the raw data; types and ranges already when it
is loaded. A variant's ``digest`` is the sha256 of its file's bytes, or for a variant with no
file of its own (the implicit base, a search file's) of the canonical JSON of its content.

Nothing here imports a game; ``simulate.vijayanagara.variants`` re-exports this module together with the
names it gave before games had formats (Vijayanagara's ``load_variant``, ``BASE``, ...).
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, ClassVar, NoReturn, get_args, get_origin

from annotated_types import Ge, Le
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic.fields import FieldInfo
from pydantic_core import InitErrorDetails, PydanticCustomError

from simulate.errors import DataError

__all__ = [
    "Context",
    "DataError",
    "Line",
    "Section",
    "Variant",
    "VariantFormat",
    "first_of",
    "int_list",
    "one_line",
    "problem",
]

BASE_NAME = "base"
Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class Variant:
    """A parsed, checked variant file; ``content`` is recorded as is in run manifests.

    ``path`` is None for the implicit base, whose ``digest`` is that of the canonical JSON
    of its content; a file variant's digest is the sha256 of the file's bytes.
    """

    name: str
    description: str
    path: Path | None
    content: dict[str, Any] = field(hash=False)
    digest: str

    @property
    def is_base(self) -> bool:
        """True for the implicit base, which changes nothing."""
        return self.path is None

    @property
    def label(self) -> str:
        """How a message names the variant: its file, else ``variant 'name'``."""
        return str(self.path) if self.path is not None else f"variant {self.name!r}"


def canonical_digest(content: dict[str, Any]) -> str:
    """The sha256 of ``content`` as canonical JSON (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------------
# The vocabulary of a game's model (integer ranges are pydantic's ``Field(ge=, le=)``): strict
# sections, one-line strings, integer lists, and the helpers its validators use to report a
# problem at a path below the value they check.


@dataclass(frozen=True)
class Context:
    """What validators may consult (``info.context``): the variant file's folder (None for a
    variant made in memory) and the game's names (None while only the file is checked)."""

    folder: Path | None
    names: Any = None

    @staticmethod
    def of(info: ValidationInfo) -> Context:
        """The context of a validation (an empty one if none was given)."""
        return info.context if isinstance(info.context, Context) else Context(None)


class Section(BaseModel):
    """A table of a variant file: known keys only, TOML's types exactly. Every key defaults to
    None only to be optional: a default is never validated nor used, and None is refused."""

    model_config = ConfigDict(extra="forbid", strict=True)
    unknown_key: ClassVar[str] = "key"  # what an unknown key is called: "unknown key (expected..."


def problem(message: str, *loc: str | int) -> NoReturn:
    """Raise ``message`` as the validation error at ``loc`` below the value being validated."""
    error = PydanticCustomError("variant", "{message}", {"message": message})
    if not loc:
        raise error
    details = InitErrorDetails(type=error, loc=loc, input=None)
    raise ValidationError.from_exception_data("variant", [details])


def first_of(
    value: Any, handler: ValidatorFunctionWrapHandler, found: tuple[Loc, str] | None
) -> Any:
    """``handler(value)``, or the problem ``found`` (loc, message) when none of the handler's
    errors comes before it in the value's order (a list's duplicate after its bad item)."""
    try:
        out = handler(value)
    except ValidationError as exc:
        first = min(_position(value, e["loc"]) for e in exc.errors())
        if found is None or first <= _position(value, found[0]):
            raise
    if found is not None:
        problem(found[1], *found[0])
    return out


def _one_line_text(value: str) -> str:
    if not value.strip():
        problem("must not be empty")
    if "\n" in value or "\r" in value:
        problem("must be one line")
    return value


Line = Annotated[str, AfterValidator(_one_line_text)]


def int_list(length: int | None = None, unique: bool = False) -> WrapValidator:
    """For ``Annotated[list[<int type>], int_list(...)]``: ``length`` values if given, each
    listed once if ``unique``."""

    def check(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        if not isinstance(value, list):
            problem("must be a list of integers")
        if length is not None and len(value) != length:
            problem(f"must have exactly {length} values")
        seen: set[int] = set()
        for i, v in enumerate(value if unique else ()):
            if isinstance(v, int) and not isinstance(v, bool):
                if v in seen:
                    return first_of(value, handler, ((i,), f"{v} is listed twice"))
                seen.add(v)
        return handler(value)

    return WrapValidator(check)


# ---------------------------------------------------------------------------------------------
# pydantic's errors as one line: the first error in the file's order, named by its dotted path.


def _walk(content: Any, loc: Loc) -> tuple[str, tuple[int, ...]]:
    """The dotted path of ``loc`` in ``content`` and its position (a key's rank, -1 if absent)."""
    path, position, node = "", [], content
    for part in loc:
        if part == "[key]":  # pydantic's mark of an error in a dict's key
            continue
        if isinstance(node, list) and isinstance(part, int):
            path, node = f"{path}[{part}]", node[part] if 0 <= part < len(node) else None
            position.append(part)
            continue
        keys = list(node) if isinstance(node, dict) else []
        position.append(keys.index(part) if part in keys else -1)
        path = f"{path}.{part}" if path else str(part)
        node = node.get(part) if isinstance(node, dict) else None
    return path, tuple(position)


def _position(content: Any, loc: Loc) -> tuple[int, ...]:
    return _walk(content, loc)[1]


def _unwrap(annotation: Any, metadata: list[Any]) -> tuple[Any, list[Any]]:
    while get_origin(annotation) is Annotated:
        annotation, *extra = get_args(annotation)
        for m in extra:
            metadata = [*metadata, *(m.metadata if isinstance(m, FieldInfo) else [m])]
    return annotation, metadata


def _declared(model: type[BaseModel], loc: Loc) -> tuple[Any, list[Any]]:
    """The annotation that ``model`` declares at ``loc`` and its metadata (e.g. Ge, Le)."""
    annotation, metadata = model, []
    for part in loc:
        annotation, metadata = _unwrap(annotation, metadata)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            declared = annotation.model_fields.get(part) if isinstance(part, str) else None
            if declared is None:
                return None, []
            annotation, metadata = declared.annotation, list(declared.metadata)
        elif get_origin(annotation) in (dict, list) and part != "[key]":
            annotation, metadata = get_args(annotation)[-1], []
        else:
            return None, []
    return _unwrap(annotation, metadata)


def _message(error: Any, model: type[BaseModel]) -> str:
    kind, loc = error["type"], error["loc"]
    if kind == "missing":
        return "required"
    if kind in ("extra_forbidden", "invalid_key"):
        table = _declared(model, loc[:-1])[0]
        return f"unknown {table.unknown_key} (expected: {', '.join(table.model_fields)})"
    if kind in ("model_type", "dict_type"):
        return "must be a table"
    if kind == "bool_type":
        return "must be true or false"
    if kind == "string_type":
        return "must be a string"
    if kind in ("int_type", "greater_than_equal", "less_than_equal"):
        metadata = _declared(model, loc)[1]
        lo = next((m.ge for m in metadata if isinstance(m, Ge)), None)
        hi = next((m.le for m in metadata if isinstance(m, Le)), None)
        if lo is not None and hi is not None:
            return f"must be {'an integer ' if kind == 'int_type' else ''}{lo}..{hi}"
    return str(error["msg"])  # a validator's own words (``problem``)


def one_line(exc: ValidationError, content: Any, model: type[BaseModel]) -> str:
    """``path: message`` of the first of ``exc``'s errors in ``content``'s order."""
    error = min(exc.errors(), key=lambda e: _position(content, e["loc"]))
    path = _walk(content, error["loc"])[0]
    message = _message(error, model)
    return f"{path}: {message}" if path else message


# ---------------------------------------------------------------------------------------------
# A game's format: loading its variants by reference and checking them.


@dataclass(frozen=True)
class VariantFormat:
    """A game's variant files: ``folder`` holds its built-ins (``<name>.toml``; ``base.toml`` is
    the annotated reference, equal to the implicit base), ``model`` checks a file, and ``names``
    reads from raw data what validators find in ``Context.names`` when a variant is applied."""

    folder: Path
    base_description: str
    model: type[BaseModel]
    names: Callable[[dict[str, Any]], Any] | None = None

    @cached_property
    def base(self) -> Variant:
        """The implicit base: no overlay."""
        content = {"name": BASE_NAME, "description": self.base_description}
        return Variant(BASE_NAME, self.base_description, None, content, canonical_digest(content))

    def builtins(self) -> list[Variant]:
        """The built-in variants, sorted by name (the base included, as the implicit base)."""
        return [self.load(name) for name in self._builtin_names()]

    def load(self, ref: str | Path | None) -> Variant:
        """A variant by reference: None or "base", a built-in name, or a path to a TOML file.

        A reference that is a ``Path``, ends in ``.toml`` or contains a path separator is a file;
        anything else names a built-in. Every reference to the base (its file too) gives the
        implicit base.
        """
        if ref is None or ref == BASE_NAME:
            return self.base
        if isinstance(ref, Path) or ref.endswith(".toml") or "/" in ref or "\\" in ref:
            path = Path(ref)
            if path.resolve() == (self.folder / f"{BASE_NAME}.toml").resolve():
                return self.base
            return self._load_file(path)
        names = self._builtin_names()
        if ref not in names:
            raise DataError(
                f"unknown variant {ref!r}: built-in variants are {', '.join(names)}"
                " (or give the path of a .toml file)"
            )
        return self._load_file(self.folder / f"{ref}.toml")

    def from_content(self, content: dict[str, Any], path: Path) -> Variant:
        """A variant from parsed TOML that came from ``path`` (checked like a file; its name need
        not be the file's: e.g. the base of a ``vsim tune`` search file)."""
        self.check(content, str(path), path.parent)
        return Variant(
            content["name"], content["description"], path.resolve(), content,
            canonical_digest(content),
        )  # fmt: skip

    def check(
        self, content: Any, label: str, folder: Path | None, raw: dict[str, Any] | None = None
    ) -> None:
        """A one-line DataError unless ``content`` fits the model (and the names in ``raw``)."""
        names = self.names(raw) if raw is not None and self.names is not None else None
        try:
            self.model.model_validate(content, context=Context(folder, names))
        except ValidationError as exc:
            raise DataError(f"{label}: {one_line(exc, content, self.model)}") from None

    def _builtin_names(self) -> list[str]:
        return sorted(p.stem for p in self.folder.glob("*.toml"))

    def _load_file(self, path: Path) -> Variant:
        label = str(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise DataError(f"{label}: cannot read ({exc.strerror})") from None
        try:
            content = tomllib.loads(data.decode("utf-8"))
        except UnicodeDecodeError:
            raise DataError(f"{label}: not UTF-8 text") from None
        except tomllib.TOMLDecodeError as exc:
            message = " ".join(str(exc).split())
            raise DataError(f"{label}: invalid TOML ({message})") from None
        self.check(content, label, path.parent)
        if content["name"] != path.stem:  # a run names its variants; the file says which
            raise DataError(f"{label}: name: must equal the file name '{path.stem}'")
        return Variant(
            content["name"], content["description"], path.resolve(), content,
            hashlib.sha256(data).hexdigest(),
        )  # fmt: skip
