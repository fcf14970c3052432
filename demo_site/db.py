"""SQLite storage: the seeded catalog, sessions, carts and orders.

Stdlib `sqlite3` in WAL mode with a new connection per call, so the threads uvicorn runs sync
endpoints on never share one. Every statement is parameterised. Table names (`orders`,
`order_items`, …) are part of docs/shop-contract.md: the eval verifier reads them directly.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

CATALOG_PATH = Path(__file__).with_name("catalog.json")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS restaurants (
    id TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    cuisine TEXT NOT NULL,
    description TEXT NOT NULL,
    rating REAL NOT NULL,
    delivery_fee_cents INTEGER NOT NULL,
    min_order_cents INTEGER NOT NULL,
    eta_minutes INTEGER NOT NULL,
    sponsored INTEGER NOT NULL,
    tags_json TEXT NOT NULL,
    reviews_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS dishes (
    id TEXT PRIMARY KEY,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    price_cents INTEGER NOT NULL,
    category TEXT NOT NULL,
    sold_out INTEGER NOT NULL,
    options_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS promo_codes (
    code TEXT PRIMARY KEY,
    percent_off INTEGER NOT NULL,
    min_subtotal_cents INTEGER NOT NULL,
    expired INTEGER NOT NULL,
    free_delivery INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    clutter INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    checkout_token TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS cart_lines (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    dish_id TEXT NOT NULL REFERENCES dishes(id),
    quantity INTEGER NOT NULL,
    options_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS orders (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    restaurant_id TEXT NOT NULL,
    restaurant_name TEXT NOT NULL,
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    phone TEXT NOT NULL,
    delivery_slot TEXT NOT NULL,
    payment_method TEXT NOT NULL,
    promo_code TEXT,
    subtotal_cents INTEGER NOT NULL,
    delivery_fee_cents INTEGER NOT NULL,
    service_fee_cents INTEGER NOT NULL,
    discount_cents INTEGER NOT NULL,
    tip_cents INTEGER NOT NULL,
    total_cents INTEGER NOT NULL,
    status TEXT NOT NULL,
    checkout_token TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (session_id, checkout_token)
);
CREATE TABLE IF NOT EXISTS order_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders(id),
    dish_id TEXT NOT NULL,
    dish_name TEXT NOT NULL,
    quantity INTEGER NOT NULL,
    options_json TEXT NOT NULL,
    unit_price_cents INTEGER NOT NULL,
    line_total_cents INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS cart_lines_session ON cart_lines(session_id);
CREATE INDEX IF NOT EXISTS order_items_order ON order_items(order_id);
"""


class StaleCheckoutError(Exception):
    """The checkout token is not the cart's current one (and no order was placed with it)."""


def new_token() -> str:
    """A random, URL-safe token for sessions and checkout tokens."""
    return secrets.token_urlsafe(16)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class ShopDB:
    """The shop's database file; opening it creates and seeds it once (reopening keeps orders)."""

    def __init__(self, path: Path | str, catalog_path: Path = CATALOG_PATH) -> None:
        self.path = Path(path)
        with self._connect() as conn:
            # WAL is a property of the file: set once, every later connection uses it.
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(_SCHEMA)
            with _transaction(conn):
                (count,) = conn.execute("SELECT COUNT(*) FROM restaurants").fetchone()
                if count == 0:
                    _seed(conn, json.loads(catalog_path.read_text(encoding="utf-8")))

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        # Autocommit mode: transactions are explicit (`_transaction`), so reads never hold locks.
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys=ON")
        # In WAL mode NORMAL still survives application crashes; only a power cut may lose the last commit.
        conn.execute("PRAGMA synchronous=NORMAL")
        try:
            yield conn
        finally:
            conn.close()

    # Catalog -------------------------------------------------------------------------------

    def restaurants(self) -> list[dict[str, Any]]:
        """Every restaurant in catalog order, with `tags`, `reviews` and `menu` (dishes with options)."""
        with self._connect() as conn:
            rows = conn.execute("SELECT * FROM restaurants ORDER BY position").fetchall()
            dishes = conn.execute("SELECT * FROM dishes ORDER BY restaurant_id, position").fetchall()
        menus: dict[str, list[dict[str, Any]]] = {}
        for dish in dishes:
            menus.setdefault(dish["restaurant_id"], []).append(
                {
                    "id": dish["id"],
                    "restaurant_id": dish["restaurant_id"],
                    "name": dish["name"],
                    "description": dish["description"],
                    "price_cents": dish["price_cents"],
                    "category": dish["category"],
                    "sold_out": bool(dish["sold_out"]),
                    "options": json.loads(dish["options_json"]),
                }
            )
        return [
            {
                "id": row["id"],
                "name": row["name"],
                "cuisine": row["cuisine"],
                "description": row["description"],
                "rating": row["rating"],
                "delivery_fee_cents": row["delivery_fee_cents"],
                "min_order_cents": row["min_order_cents"],
                "eta_minutes": row["eta_minutes"],
                "sponsored": bool(row["sponsored"]),
                "tags": json.loads(row["tags_json"]),
                "reviews": json.loads(row["reviews_json"]),
                "menu": menus.get(row["id"], []),
            }
            for row in rows
        ]

    def promo_code(self, code: str) -> dict[str, Any] | None:
        """The promo code's row (case-insensitive lookup), or None when unknown."""
        with self._connect() as conn:
            row = conn.execute("SELECT * FROM promo_codes WHERE code = ? COLLATE NOCASE", (code,)).fetchone()
        if row is None:
            return None
        return {
            "code": row["code"],
            "percent_off": row["percent_off"],
            "min_subtotal_cents": row["min_subtotal_cents"],
            "expired": bool(row["expired"]),
            "free_delivery": bool(row["free_delivery"]),
        }

    def settings(self) -> dict[str, Any]:
        """Catalog constants: `delivery_slots`, `payment_methods`, `service_fee_percent`, `currency`."""
        with self._connect() as conn:
            rows = conn.execute("SELECT key, value_json FROM settings").fetchall()
        return {row["key"]: json.loads(row["value_json"]) for row in rows}

    # Sessions ------------------------------------------------------------------------------

    def session(self, session_id: str) -> dict[str, Any] | None:
        """The session's row (`id, clutter, seed, checkout_token, created_at`), or None."""
        with self._connect() as conn:
            row = conn.execute("SELECT * FROM sessions WHERE id = ?", (session_id,)).fetchone()
        return dict(row) if row is not None else None

    def session_or_new(self, session_id: str | None, clutter: int, seed: int) -> tuple[dict[str, Any], bool]:
        """The session the shop issued under `session_id`, or a new one under a fresh random id.

        Returns `(row, created)`. Only ids this method made ever name a session, so a client cannot
        choose its own (session fixation); they live in the database, so they outlast a restart.
        """
        with self._connect() as conn:
            if session_id is not None:
                row = conn.execute("SELECT * FROM sessions WHERE id = ?", (session_id,)).fetchone()
                if row is not None:
                    # Most requests: a plain read, no write lock taken.
                    return dict(row), False
            fresh = new_token()
            conn.execute(
                "INSERT INTO sessions (id, clutter, seed, checkout_token, created_at) VALUES (?, ?, ?, ?, ?)",
                (fresh, clutter, seed, new_token(), _now()),
            )
            row = conn.execute("SELECT * FROM sessions WHERE id = ?", (fresh,)).fetchone()
        return dict(row), True

    def set_session_settings(self, session_id: str, clutter: int, seed: int) -> None:
        """Change a session's clutter level and seed."""
        with self._connect() as conn:
            conn.execute(
                "UPDATE sessions SET clutter = ?, seed = ? WHERE id = ?", (clutter, seed, session_id)
            )

    # Cart ----------------------------------------------------------------------------------

    def cart_lines(self, session_id: str) -> list[dict[str, Any]]:
        """The session's cart lines in the order they were added; `options` decoded."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT id, dish_id, quantity, options_json FROM cart_lines WHERE session_id = ? ORDER BY id",
                (session_id,),
            ).fetchall()
        return [
            {
                "line_id": row["id"],
                "dish_id": row["dish_id"],
                "quantity": row["quantity"],
                "options": json.loads(row["options_json"]),
            }
            for row in rows
        ]

    def add_cart_line(
        self, session_id: str, dish_id: str, options: dict[str, Any], quantity: int, max_quantity: int
    ) -> int | None:
        """Add to the cart, merging with the line of the same dish and options.

        Returns the line id, or None (nothing changed) when the merged quantity would exceed
        `max_quantity`.
        """
        # `normalize_options` returns choices in menu order, so equal choices give equal JSON text.
        options_json = json.dumps(options, ensure_ascii=False)
        with self._connect() as conn, _transaction(conn):
            row = conn.execute(
                "SELECT id, quantity FROM cart_lines"
                " WHERE session_id = ? AND dish_id = ? AND options_json = ?",
                (session_id, dish_id, options_json),
            ).fetchone()
            if row is None:
                cursor = conn.execute(
                    "INSERT INTO cart_lines (session_id, dish_id, quantity, options_json)"
                    " VALUES (?, ?, ?, ?)",
                    (session_id, dish_id, quantity, options_json),
                )
                return cursor.lastrowid
            if row["quantity"] + quantity > max_quantity:
                return None
            conn.execute("UPDATE cart_lines SET quantity = quantity + ? WHERE id = ?", (quantity, row["id"]))
            line_id: int = row["id"]
            return line_id

    def set_line_quantity(self, session_id: str, line_id: int, quantity: int) -> bool:
        """Set a line's quantity; False when the session has no such line."""
        with self._connect() as conn:
            cursor = conn.execute(
                "UPDATE cart_lines SET quantity = ? WHERE id = ? AND session_id = ?",
                (quantity, line_id, session_id),
            )
        return cursor.rowcount > 0

    def delete_line(self, session_id: str, line_id: int) -> bool:
        """Remove a line; False when the session has no such line."""
        with self._connect() as conn:
            cursor = conn.execute(
                "DELETE FROM cart_lines WHERE id = ? AND session_id = ?", (line_id, session_id)
            )
        return cursor.rowcount > 0

    def clear_cart(self, session_id: str) -> None:
        """Empty the session's cart (the checkout token stays: the cart is the same cart)."""
        with self._connect() as conn:
            conn.execute("DELETE FROM cart_lines WHERE session_id = ?", (session_id,))

    # Orders --------------------------------------------------------------------------------

    def place_order(
        self, session_id: str, checkout_token: str, order: dict[str, Any], items: list[dict[str, Any]]
    ) -> tuple[int, bool]:
        """Store an order, empty the cart and rotate its checkout token, all in one transaction.

        Returns `(order_id, created)`. When the session already has an order with this token (a
        double submit), that order's id comes back with `created=False` and nothing changes.
        Raises `StaleCheckoutError` when the token is neither used nor the cart's current one.
        """
        with self._connect() as conn, _transaction(conn):
            existing = conn.execute(
                "SELECT id FROM orders WHERE session_id = ? AND checkout_token = ?",
                (session_id, checkout_token),
            ).fetchone()
            if existing is not None:
                return existing["id"], False
            current = conn.execute(
                "SELECT checkout_token FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
            if current is None or current["checkout_token"] != checkout_token:
                raise StaleCheckoutError(checkout_token)
            cursor = conn.execute(
                "INSERT INTO orders (session_id, restaurant_id, restaurant_name, name, address, phone,"
                " delivery_slot, payment_method, promo_code, subtotal_cents, delivery_fee_cents,"
                " service_fee_cents, discount_cents, tip_cents, total_cents, status, checkout_token,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    session_id,
                    order["restaurant_id"],
                    order["restaurant_name"],
                    order["name"],
                    order["address"],
                    order["phone"],
                    order["delivery_slot"],
                    order["payment_method"],
                    order["promo_code"],
                    order["subtotal_cents"],
                    order["delivery_fee_cents"],
                    order["service_fee_cents"],
                    order["discount_cents"],
                    order["tip_cents"],
                    order["total_cents"],
                    "confirmed",
                    checkout_token,
                    _now(),
                ),
            )
            order_id = cursor.lastrowid
            assert order_id is not None  # an INSERT always has one
            conn.executemany(
                "INSERT INTO order_items (order_id, dish_id, dish_name, quantity, options_json,"
                " unit_price_cents, line_total_cents) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        order_id,
                        item["dish_id"],
                        item["dish_name"],
                        item["quantity"],
                        json.dumps(item["options"], ensure_ascii=False),
                        item["unit_price_cents"],
                        item["line_total_cents"],
                    )
                    for item in items
                ],
            )
            conn.execute("DELETE FROM cart_lines WHERE session_id = ?", (session_id,))
            conn.execute("UPDATE sessions SET checkout_token = ? WHERE id = ?", (new_token(), session_id))
            return order_id, True

    def orders(self, session_id: str | None = None) -> list[dict[str, Any]]:
        """Orders newest first (all sessions' unless `session_id`), each with its `items`."""
        sql = "SELECT * FROM orders"
        params: tuple[str, ...] = ()
        if session_id is not None:
            sql += " WHERE session_id = ?"
            params = (session_id,)
        with self._connect() as conn:
            rows = conn.execute(sql + " ORDER BY id DESC", params).fetchall()
            return [self._with_items(conn, row) for row in rows]

    def order_for_token(self, session_id: str, checkout_token: str) -> dict[str, Any] | None:
        """The session's order placed with this checkout token, or None."""
        with self._connect() as conn:
            row = conn.execute(
                "SELECT * FROM orders WHERE session_id = ? AND checkout_token = ?",
                (session_id, checkout_token),
            ).fetchone()
            return self._with_items(conn, row) if row is not None else None

    def order(self, order_id: int, session_id: str | None = None) -> dict[str, Any] | None:
        """One order with its `items`, or None (also when it belongs to another session)."""
        with self._connect() as conn:
            row = conn.execute("SELECT * FROM orders WHERE id = ?", (order_id,)).fetchone()
            if row is None or (session_id is not None and row["session_id"] != session_id):
                return None
            return self._with_items(conn, row)

    @staticmethod
    def _with_items(conn: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
        items = conn.execute(
            "SELECT dish_id, dish_name, quantity, options_json, unit_price_cents, line_total_cents"
            " FROM order_items WHERE order_id = ? ORDER BY id",
            (row["id"],),
        ).fetchall()
        order = dict(row)
        order["items"] = [
            {
                "dish_id": item["dish_id"],
                "dish_name": item["dish_name"],
                "quantity": item["quantity"],
                "options": json.loads(item["options_json"]),
                "unit_price_cents": item["unit_price_cents"],
                "line_total_cents": item["line_total_cents"],
            }
            for item in items
        ]
        return order


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    # IMMEDIATE takes the write lock up front, so two racing submits serialise instead of both
    # reading "no order yet" and then colliding.
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _seed(conn: sqlite3.Connection, catalog: dict[str, Any]) -> None:
    for position, restaurant in enumerate(catalog["restaurants"]):
        conn.execute(
            "INSERT INTO restaurants (id, position, name, cuisine, description, rating, delivery_fee_cents,"
            " min_order_cents, eta_minutes, sponsored, tags_json, reviews_json)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                restaurant["id"],
                position,
                restaurant["name"],
                restaurant["cuisine"],
                restaurant["description"],
                restaurant["rating"],
                restaurant["delivery_fee_cents"],
                restaurant["min_order_cents"],
                restaurant["eta_minutes"],
                int(restaurant["sponsored"]),
                json.dumps(restaurant["tags"], ensure_ascii=False),
                json.dumps(restaurant["reviews"], ensure_ascii=False),
            ),
        )
        for dish_position, dish in enumerate(restaurant["menu"]):
            conn.execute(
                "INSERT INTO dishes (id, restaurant_id, position, name, description, price_cents, category,"
                " sold_out, options_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    dish["id"],
                    restaurant["id"],
                    dish_position,
                    dish["name"],
                    dish["description"],
                    dish["price_cents"],
                    dish["category"],
                    int(dish["sold_out"]),
                    json.dumps(dish["options"], ensure_ascii=False),
                ),
            )
    for promo in catalog["promo_codes"]:
        conn.execute(
            "INSERT INTO promo_codes (code, percent_off, min_subtotal_cents, expired, free_delivery)"
            " VALUES (?, ?, ?, ?, ?)",
            (
                promo["code"],
                promo["percent_off"],
                promo["min_subtotal_cents"],
                int(promo["expired"]),
                int(promo["free_delivery"]),
            ),
        )
    for key in ("currency", "delivery_slots", "payment_methods", "service_fee_percent"):
        conn.execute("INSERT INTO settings (key, value_json) VALUES (?, ?)", (key, json.dumps(catalog[key])))
