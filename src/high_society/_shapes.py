"""Shapes of JSON values, each stated once: a shape gives both its JSON Schema and its strict
reader, so that what a schema promises and what a reader takes cannot differ.

:mod:`high_society.wire` states every shape the wire carries with these. A reader takes
parsed JSON and a JSON path, and returns the value typed or raises
:class:`~high_society.errors.RecordError` with a stable code and the path of the fault (the
same codes as a recorded game's reader). A schema is written into a :class:`Schemas`: named
shapes become definitions there (a standalone schema's ``$defs``, or an OpenAPI document's
components) and are referred to by ``$ref``.

Only shapes a reader must take need a reader that does work: the shapes of what is sent
(payloads, answers) are read only by the tests, which check what is sent against them.
"""

import enum
from collections.abc import Callable, Iterable, Mapping
from typing import Generic, TypeVar

from high_society._json import JSON, JSONObject, key_path, kind
from high_society._text import short_repr
from high_society.errors import RecordCode, RecordError

__all__ = [
    "AnyOf",
    "Array",
    "Boolean",
    "Choice",
    "Const",
    "External",
    "Field",
    "Form",
    "Integer",
    "Named",
    "Null",
    "Nullable",
    "Number",
    "Object",
    "Schemas",
    "Shape",
    "String",
    "Tagged",
]

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
V = TypeVar("V")

_C = RecordCode


def _fail(code: RecordCode | str, message: str, path: str) -> RecordError:
    return RecordError(code, message, path=path)


class Shape(Generic[T_co]):
    """The form of a JSON value: :meth:`schema` states it, :meth:`read` takes it."""

    __slots__ = ("doc",)

    def __init__(self, doc: str = "") -> None:
        self.doc = doc

    def schema(self, into: "Schemas") -> JSONObject:
        """The JSON Schema of the shape, its named parts put into ``into``."""
        made = self._schema(into)
        if self.doc:
            made["description"] = self.doc
        return made

    def _schema(self, into: "Schemas") -> JSONObject:
        raise NotImplementedError

    def read(self, value: object, path: str = "$") -> T_co:
        """``value`` (parsed JSON) as the shape's value.

        Raises:
            RecordError: ``value`` is not of the shape (``WRONG_TYPE``, ``MISSING_KEY``,
                ``UNKNOWN_KEY``, ``BAD_NUMBER`` or the shape's own code), at its path.
        """
        raise NotImplementedError


class Integer(Shape[int]):
    """A whole number (not ``true``, not ``3.0``), from ``minimum`` to ``maximum``."""

    __slots__ = ("maximum", "minimum")

    def __init__(self, minimum: int | None = None, maximum: int | None = None, doc: str = ""):
        super().__init__(doc)
        self.minimum = minimum
        self.maximum = maximum

    def _schema(self, into: "Schemas") -> JSONObject:
        made: JSONObject = {"type": "integer"}
        if self.minimum is not None:
            made["minimum"] = self.minimum
        if self.maximum is not None:
            made["maximum"] = self.maximum
        return made

    def read(self, value: object, path: str = "$") -> int:
        if type(value) is not int:
            raise _fail(_C.WRONG_TYPE, f"{path} must be an integer, not {kind(value)}", path)
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            low = "" if self.minimum is None else f" from {self.minimum}"
            high = "" if self.maximum is None else f" to {self.maximum}"
            raise _fail(_C.BAD_NUMBER, f"{path} must be{low}{high}, not {short_repr(value)}", path)
        return value


class Boolean(Shape[bool]):
    """``true`` or ``false``."""

    __slots__ = ()

    def _schema(self, into: "Schemas") -> JSONObject:
        return {"type": "boolean"}

    def read(self, value: object, path: str = "$") -> bool:
        if type(value) is not bool:
            raise _fail(_C.WRONG_TYPE, f"{path} must be true or false, not {kind(value)}", path)
        return value


class String(Shape[str]):
    """A string of ``min_length`` to ``max_length`` characters; ``check(value, path)``, when
    given, is the reader instead (it checks the rest too, and ``doc`` says it)."""

    __slots__ = ("check", "max_length", "min_length")

    def __init__(
        self,
        min_length: int = 0,
        max_length: int | None = None,
        doc: str = "",
        check: Callable[[object, str], str] | None = None,
    ) -> None:
        super().__init__(doc)
        self.min_length = min_length
        self.max_length = max_length
        self.check = check

    def _schema(self, into: "Schemas") -> JSONObject:
        made: JSONObject = {"type": "string"}
        if self.min_length:
            made["minLength"] = self.min_length
        if self.max_length is not None:
            made["maxLength"] = self.max_length
        return made

    def read(self, value: object, path: str = "$") -> str:
        if self.check is not None:
            return self.check(value, path)
        if type(value) is not str:
            raise _fail(_C.WRONG_TYPE, f"{path} must be a string, not {kind(value)}", path)
        if len(value) < self.min_length or (
            self.max_length is not None and len(value) > self.max_length
        ):
            most = "" if self.max_length is None else f" to {self.max_length}"
            raise _fail(_C.WRONG_TYPE, f"{path} must hold {self.min_length}{most} characters", path)
        return value


class Choice(Shape[V]):
    """One of ``values`` (strings, integers, or an enum's members, given by their value);
    anything else is refused with ``code``."""

    __slots__ = ("code", "values", "what")

    def __init__(
        self,
        values: Iterable[V],
        doc: str = "",
        *,
        code: RecordCode | str = _C.WRONG_TYPE,
        what: str = "",
    ) -> None:
        super().__init__(doc)
        self.values = tuple(values)
        self.code = code
        self.what = what

    def _plain(self) -> list[JSON]:
        return [v.value if isinstance(v, enum.Enum) else v for v in self.values]  # type: ignore[misc]

    def _schema(self, into: "Schemas") -> JSONObject:
        values = self._plain()
        types = {type(value) for value in values}
        made: JSONObject = {"enum": values}
        if types == {str}:
            made = {"type": "string", "enum": values}
        elif types == {int}:
            made = {"type": "integer", "enum": values}
        return made

    def read(self, value: object, path: str = "$") -> V:
        for member, plain in zip(self.values, self._plain(), strict=True):
            if type(value) is type(plain) and value == plain:
                return member
        names = ", ".join(str(plain) for plain in self._plain())
        what = self.what or path
        raise _fail(self.code, f"{what} is one of {names}, not {short_repr(value)}", path)


class Number(Shape[int | float]):
    """A number, whole or not (a status: Scandale halves it), from ``minimum`` (or more
    than ``above``) to ``maximum``."""

    __slots__ = ("above", "maximum", "minimum")

    def __init__(
        self,
        minimum: float | None = None,
        maximum: float | None = None,
        *,
        above: float | None = None,
        doc: str = "",
    ) -> None:
        super().__init__(doc)
        self.minimum = minimum
        self.maximum = maximum
        self.above = above

    def _schema(self, into: "Schemas") -> JSONObject:
        made: JSONObject = {"type": "number"}
        if self.minimum is not None:
            made["minimum"] = self.minimum
        if self.above is not None:
            made["exclusiveMinimum"] = self.above
        if self.maximum is not None:
            made["maximum"] = self.maximum
        return made

    def read(self, value: object, path: str = "$") -> int | float:
        if type(value) not in (int, float):
            raise _fail(_C.WRONG_TYPE, f"{path} must be a number, not {kind(value)}", path)
        assert isinstance(value, int | float)
        if (
            (self.minimum is not None and value < self.minimum)
            or (self.above is not None and value <= self.above)
            or (self.maximum is not None and value > self.maximum)
        ):
            low = f" from {self.minimum:g}" if self.minimum is not None else ""
            low = f" more than {self.above:g}" if self.above is not None else low
            high = "" if self.maximum is None else f" to {self.maximum:g}"
            raise _fail(_C.BAD_NUMBER, f"{path} must be{low}{high}, not {short_repr(value)}", path)
        return value


class AnyOf(Shape[object]):
    """A value of any of ``shapes`` (read by the first that takes it)."""

    __slots__ = ("shapes",)

    def __init__(self, *shapes: Shape[object], doc: str = "") -> None:
        super().__init__(doc)
        self.shapes = shapes

    def _schema(self, into: "Schemas") -> JSONObject:
        return {"anyOf": [_as_enum(shape.schema(into)) for shape in self.shapes]}

    def read(self, value: object, path: str = "$") -> object:
        for shape in self.shapes[:-1]:
            try:
                return shape.read(value, path)
            except RecordError:
                continue
        return self.shapes[-1].read(value, path)


class Null(Shape[None]):
    """``null`` alone (a key that is always null in one shape and not in its twin)."""

    __slots__ = ()

    def _schema(self, into: "Schemas") -> JSONObject:
        return {"type": "null"}

    def read(self, value: object, path: str = "$") -> None:
        if value is not None:
            raise _fail(_C.WRONG_TYPE, f"{path} must be null, not {kind(value)}", path)


class Const(Shape[str]):
    """Exactly the string ``value`` (an object's tag)."""

    __slots__ = ("value",)

    def __init__(self, value: str, doc: str = "") -> None:
        super().__init__(doc)
        self.value = value

    def _schema(self, into: "Schemas") -> JSONObject:
        return {"type": "string", "const": self.value}

    def read(self, value: object, path: str = "$") -> str:
        if value != self.value:
            raise _fail(_C.WRONG_TYPE, f'{path} must be "{self.value}"', path)
        return self.value


class Nullable(Shape[T | None]):
    """``null``, or a value of ``shape``."""

    __slots__ = ("shape",)

    def __init__(self, shape: Shape[T], doc: str = "") -> None:
        super().__init__(doc)
        self.shape = shape

    def _schema(self, into: "Schemas") -> JSONObject:
        return {"anyOf": [self.shape.schema(into), {"type": "null"}]}

    def read(self, value: object, path: str = "$") -> T | None:
        return None if value is None else self.shape.read(value, path)


class Array(Shape[tuple[T, ...]]):
    """A list of ``min_items`` to ``max_items`` values of ``items`` (``unique``: no value
    twice)."""

    __slots__ = ("code", "items", "max_items", "min_items", "unique")

    def __init__(
        self,
        items: Shape[T],
        *,
        min_items: int = 0,
        max_items: int | None = None,
        unique: bool = False,
        doc: str = "",
        code: RecordCode | str = _C.WRONG_TYPE,
    ) -> None:
        super().__init__(doc)
        self.code = code
        self.items = items
        self.min_items = min_items
        self.max_items = max_items
        self.unique = unique

    def _schema(self, into: "Schemas") -> JSONObject:
        made: JSONObject = {"type": "array", "items": self.items.schema(into)}
        if self.min_items:
            made["minItems"] = self.min_items
        if self.max_items is not None:
            made["maxItems"] = self.max_items
        if self.unique:
            made["uniqueItems"] = True
        return made

    def read(self, value: object, path: str = "$") -> tuple[T, ...]:
        if (
            type(value) is not list
            or len(value) < self.min_items
            or (self.max_items is not None and len(value) > self.max_items)
        ):
            most = "" if self.max_items is None else f" to {self.max_items}"
            raise _fail(self.code, f"{path} must be a list of {self.min_items}{most} items", path)
        read = tuple(self.items.read(item, f"{path}[{i}]") for i, item in enumerate(value))
        if self.unique and len(set(read)) != len(read):
            raise _fail(_C.WRONG_TYPE, f"{path} must not hold a value twice", path)
        return read


class Field(Generic[T_co]):
    """A key of an :class:`Object`: its shape, whether it is required, and what it means."""

    __slots__ = ("doc", "required", "shape")

    def __init__(self, shape: Shape[T_co], doc: str = "", *, required: bool = True) -> None:
        self.shape = shape
        self.doc = doc
        self.required = required


class Object(Shape[T]):
    """An object with exactly the keys of ``fields`` (the required ones, and maybe the
    others), built into a value by ``build(**read)`` (each optional key left out is not
    passed). ``check(value, path)`` checks what the keys' shapes cannot (between keys)."""

    __slots__ = ("build", "check", "fields", "optional", "required")

    def __init__(
        self,
        fields: Mapping[str, Field[object]],
        build: Callable[..., T],
        doc: str = "",
        check: Callable[[T, str], None] | None = None,
    ) -> None:
        super().__init__(doc)
        self.fields = dict(fields)
        self.build = build
        self.check = check
        self.required = tuple(key for key, field in self.fields.items() if field.required)

    def _schema(self, into: "Schemas") -> JSONObject:
        properties: JSONObject = {}
        for key, field in self.fields.items():
            made = field.shape.schema(into)
            if field.doc:
                made = {**made, "description": field.doc}
                if "$ref" in made:  # a reference takes no siblings in every reader
                    made = {"allOf": [{"$ref": made.pop("$ref")}], **made}
            properties[key] = made
        return {
            "type": "object",
            "required": list(self.required),
            "additionalProperties": False,
            "properties": properties,
        }

    def read(self, value: object, path: str = "$") -> T:
        if type(value) is not dict:
            raise _fail(_C.WRONG_TYPE, f"{path} must be an object, not {kind(value)}", path)
        fields = self.fields
        for key in value:
            if key not in fields:
                allowed = ", ".join(f'"{k}"' for k in fields)
                raise _fail(
                    _C.UNKNOWN_KEY,
                    f"unknown key {short_repr(key)} (the keys are {allowed})",
                    key_path(path, str(key)),
                )
        for key in self.required:
            if key not in value:
                raise _fail(_C.MISSING_KEY, f'the key "{key}" is missing', key_path(path, key))
        read = {
            key: fields[key].shape.read(item, key_path(path, key)) for key, item in value.items()
        }
        try:
            made = self.build(**read)
        except RecordError as error:  # a build's own check, of the object as a whole
            raise _fail(error.code, error.message, path) from None
        if self.check is not None:
            self.check(made, path)
        return made


class Tagged(Shape[T]):
    """One of several objects, told apart by the string each holds at ``tag`` (a
    discriminated union)."""

    __slots__ = ("forms", "tag")

    def __init__(self, tag: str, forms: Mapping[str, "Named[T]"], doc: str = "") -> None:
        super().__init__(doc)
        self.tag = tag
        self.forms = dict(forms)

    def _schema(self, into: "Schemas") -> JSONObject:
        refs: list[JSON] = [form.schema(into) for form in self.forms.values()]
        mapping: JSONObject = {value: into.ref_to(form.name) for value, form in self.forms.items()}
        return {"oneOf": refs, "discriminator": {"propertyName": self.tag, "mapping": mapping}}

    def read(self, value: object, path: str = "$") -> T:
        if type(value) is not dict:
            raise _fail(_C.WRONG_TYPE, f"{path} must be an object, not {kind(value)}", path)
        tag = value.get(self.tag)
        form = self.forms.get(tag) if type(tag) is str else None
        if form is None:
            tags = ", ".join(f'"{name}"' for name in self.forms)
            raise _fail(
                _C.WRONG_TYPE,
                f"{key_path(path, self.tag)} is one of {tags}",
                key_path(path, self.tag),
            )
        return form.read(value, path)


class Named(Shape[T_co]):
    """``shape`` under a name: written once into the schemas, referred to wherever it is
    used (and so one type in a generated client)."""

    __slots__ = ("name", "shape", "title")

    def __init__(self, name: str, shape: Shape[T_co], title: str = "") -> None:
        super().__init__("")
        self.name = name
        self.shape = shape
        self.title = title

    def schema(self, into: "Schemas") -> JSONObject:
        """A reference to the shape, written into ``into`` under its name first."""
        return into.define(self)

    def read(self, value: object, path: str = "$") -> T_co:
        """``value`` as the named shape reads it."""
        return self.shape.read(value, path)


class External(Shape[T_co]):
    """A shape stated elsewhere: a standalone JSON Schema the package ships (identified by
    its ``$id``), read by the library's own reader (``reader(value, path)``), which its tests
    tie to that schema. In a document its definitions become the document's own; ``parts``
    names those of its ``$defs`` that are other external shapes (a record's ``action``)."""

    __slots__ = ("name", "parts", "reader", "standalone")

    def __init__(
        self,
        name: str,
        standalone: Callable[[], JSONObject],
        reader: Callable[[object, str], T_co],
        parts: Mapping[str, "External[object]"] | None = None,
    ) -> None:
        super().__init__("")
        self.name = name
        self.standalone = standalone
        self.reader = reader
        self.parts = dict(parts or {})

    def schema(self, into: "Schemas") -> JSONObject:
        return into.external(self)

    def read(self, value: object, path: str = "$") -> T_co:
        return self.reader(value, path)


class Form(Shape[T]):
    """One form of an external shape that is a ``oneOf`` of titled forms told apart by a
    tag (``tag: value``): the action's ``bid`` form, say. Read as the external shape,
    then refused unless it is an instance of ``kind``."""

    __slots__ = ("external", "kind", "tag", "title", "value")

    def __init__(
        self, external: External[object], title: str, tag: str, value: str, kind: type[T]
    ) -> None:
        super().__init__("")
        self.external = external
        self.title = title
        self.tag = tag
        self.value = value
        self.kind = kind

    def schema(self, into: "Schemas") -> JSONObject:
        found = self.external.schema(into)
        if not into.inline_external:
            constraint: JSONObject = {
                "required": [self.tag],
                "properties": {self.tag: {"const": self.value}},
            }
            return {"allOf": [found, constraint]}
        return {"$ref": into.ref_to(_form_name(self.title, self.external.name))}

    def read(self, value: object, path: str = "$") -> T:
        read = self.external.read(value, path)
        if not isinstance(read, self.kind):
            where = key_path(path, self.tag)
            raise _fail(_C.WRONG_TYPE, f'{where} must be "{self.value}"', where)
        return read


class Schemas:
    """Where the named shapes of one schema or document are written: under ``prefix``
    (``#/$defs/`` for a standalone schema, ``#/components/schemas/`` for an OpenAPI
    document). ``inline_external``: an external shape's definitions are copied in
    (documents), else it is referred to by its ``$id`` (standalone schemas)."""

    def __init__(self, prefix: str, *, inline_external: bool) -> None:
        self.prefix = prefix
        self.inline_external = inline_external
        self.defined: dict[str, JSONObject] = {}
        self._externals: dict[str, str] = {}  # $id: name

    def ref_to(self, name: str) -> str:
        return self.prefix + name

    def define(self, named: Named[object]) -> JSONObject:
        """A reference to ``named``, written here first when it is not yet."""
        if named.name not in self.defined:
            self.defined[named.name] = {}  # taken: a shape that refers to itself stops here
            made = named.shape.schema(self)
            made["title"] = named.name
            if named.title:
                described = made.get("description")
                made["description"] = (
                    f"{named.title}." if not described else f"{named.title}: {described}"
                )
            self.defined[named.name] = made
        return {"$ref": self.ref_to(named.name)}

    def external(self, shape: External[T]) -> JSONObject:
        """A reference to an external shape: by its ``$id``, or to its definitions copied
        in (each of its ``$defs`` a definition named in PascalCase; a ``oneOf`` of titled
        forms told apart by a ``const`` key, each form a definition, with a
        discriminator)."""
        standalone = shape.standalone()
        identifier = str(standalone["$id"])
        if not self.inline_external:
            return {"$ref": identifier}
        if identifier not in self._externals:
            self._externals[identifier] = shape.name
            self._copy_in(shape, standalone)
        return {"$ref": self.ref_to(shape.name)}

    def _copy_in(self, shape: External[T], standalone: JSONObject) -> None:
        name = shape.name
        body = {k: v for k, v in standalone.items() if k not in ("$schema", "$id", "$defs")}
        defs = standalone.get("$defs", {})
        assert isinstance(defs, dict)
        names = {key: _pascal(key) for key in defs}
        for key, external in shape.parts.items():
            self.external(external)
            names[key] = external.name

        def ref(target: JSON) -> JSON:
            if isinstance(target, str) and target.startswith("#/$defs/"):
                return self.ref_to(names[target.removeprefix("#/$defs/")])
            if isinstance(target, str) and target in self._externals:
                return self.ref_to(self._externals[target])
            return target

        def rewrite(value: JSON) -> JSON:
            if isinstance(value, dict):
                return {k: (ref(v) if k == "$ref" else rewrite(v)) for k, v in value.items()}
            if isinstance(value, list):
                return [rewrite(item) for item in value]
            return value

        for key, part in defs.items():
            if key not in shape.parts and names[key] not in self.defined:
                copied = rewrite(part)
                assert isinstance(copied, dict)
                self.defined[names[key]] = {**copied, "title": names[key]}
        made = rewrite(body)
        assert isinstance(made, dict)
        forms = made.pop("oneOf", None)
        if isinstance(forms, list):
            made = self._forms(name, made, forms)
        title = made.get("title")
        if isinstance(title, str) and title != name:
            described = made.get("description")
            made["description"] = f"{title}." if not described else f"{title}: {described}"
        made["title"] = name
        self.defined[name] = made

    def _forms(self, name: str, outer: JSONObject, forms: list[JSON]) -> JSONObject:
        """A ``oneOf`` of titled forms, each a definition, chosen by the key whose value
        each form fixes (a ``const``)."""
        refs: list[JSON] = []
        mapping: JSONObject = {}
        tag = ""
        for form in forms:
            assert isinstance(form, dict)
            form_name = _form_name(str(form["title"]), name)
            properties = form["properties"]
            assert isinstance(properties, dict)
            for key, prop in properties.items():
                if isinstance(prop, dict) and "const" in prop:
                    tag = key
                    mapping[str(prop["const"])] = self.ref_to(form_name)
            self.defined[form_name] = {**form, "title": form_name}
            refs.append({"$ref": self.ref_to(form_name)})
        return {
            **{k: v for k, v in outer.items() if k in ("title", "description")},
            "oneOf": refs,
            "discriminator": {"propertyName": tag, "mapping": mapping},
        }


def _as_enum(schema: JSONObject) -> JSONObject:
    """A string ``const`` as a one-value ``enum``: in a union, a form client generators
    tell apart from the union's other members (some check a ``const`` first and refuse
    whatever differs, an integer seat among them)."""
    value = schema.get("const")
    if not isinstance(value, str):
        return schema
    return {**{k: v for k, v in schema.items() if k != "const"}, "type": "string", "enum": [value]}


def _form_name(title: str, name: str) -> str:
    return f"{_pascal(title)}{name}"


def _pascal(name: str) -> str:
    return name[:1].upper() + name[1:]


def standalone(shape: Named[T], identifier: str, title: str) -> JSONObject:
    """The standalone JSON Schema (draft 2020-12) of ``shape``: its named parts in
    ``$defs``, external shapes referred to by their ``$id``."""
    into = Schemas("#/$defs/", inline_external=False)
    root = shape.shape.schema(into)
    made: JSONObject = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": identifier,
        "title": title,
        **root,
    }
    if into.defined:
        made["$defs"] = dict(sorted(into.defined.items()))
    return made
