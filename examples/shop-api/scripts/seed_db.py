"""Load demo products into a local database."""

import json
import os
from pathlib import Path

DSN = os.environ.get("DATABASE_URL", "postgresql://localhost/shop")


def main() -> None:
    products = json.loads(Path("fixtures/products.json").read_text())
    print(f"seeding {len(products)} products into {DSN.split('@')[-1]}")


if __name__ == "__main__":
    main()
