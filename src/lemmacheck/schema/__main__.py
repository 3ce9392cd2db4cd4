"""``python -m lemmacheck.schema``: write ``results.schema.json``'s kind parts from the built-in kinds."""

from . import SCHEMA_PATH, shipped_text

if __name__ == "__main__":
    SCHEMA_PATH.write_text(shipped_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")
