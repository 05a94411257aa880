"""The base of every result model (`lspd.ops.models`): unknown fields refused, each field
documented by the string under it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from lspd.ops.field_docs import field_docs


class Model(BaseModel):
    """Base of every result: unknown fields refused; a string under a field documents it."""

    # The strings are read by `field_docs`: `use_attribute_docstrings` took 0.1 s more CPU.
    model_config = ConfigDict(extra="forbid", defer_build=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        """Each field's description: the string under it (`field_docs`)."""
        super().__pydantic_init_subclass__(**kwargs)
        for name, field in cls.__pydantic_fields__.items():
            if field.description is None:
                field.description = field_docs(cls).get(name)
