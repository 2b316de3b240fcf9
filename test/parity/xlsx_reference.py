#!/usr/bin/env python3
"""Writes a random workbook with openpyxl and pandas' own reading of it, as engine text values, so
a test can compare the engine's XLSX reader with pandas (read_excel) cell by cell.

Usage: python3 xlsx_reference.py OUT.xlsx OUT.json SEED
OUT.json: {"columns": [...], "rows": [[text or null, ...], ...]} for the sheet "random data".
"""
import datetime as dt
import json
import math
import os
import random
import sys

import openpyxl
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import js_number_text  # noqa: E402

PIECES = ["a", "Z", "é", "ß", "東京", "🌧", "&", "<b>", '"', "'", ",", " ", "\n", "\r\n", "x_y", "Ω", "0", "-", "ǆ"]


def random_text(rng):
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 6)))


def random_float(rng):
    return rng.choice([rng.uniform(-1, 1), rng.uniform(-1e6, 1e6), rng.uniform(0, 1e-4), round(rng.uniform(-1000, 1000), 2)])


def main():
    out_xlsx, out_json, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(seed)
    header = ["id", "count", "amount", "label", "day", "moment", "flag"]
    book = openpyxl.Workbook()
    book.active.title = "cover"
    book.active.append(["made by xlsx_reference.py"])
    sheet = book.create_sheet("random data")
    sheet.append([])  # an empty first row: the header is on row 2
    sheet.append(header)
    for i in range(300):
        maybe = lambda value: None if rng.random() < 0.1 else value  # noqa: E731
        row = [
            i + 1,
            maybe(rng.randint(-10**9, 10**9)),
            maybe(random_float(rng)),
            maybe(random_text(rng)),
            maybe(dt.datetime(1950, 1, 1) + dt.timedelta(days=rng.randint(0, 40000))),
            maybe(dt.datetime(1970, 1, 1) + dt.timedelta(seconds=rng.randint(0, 2_000_000_000))),
            maybe(rng.random() < 0.5),
        ]
        sheet.append(row)
        r = sheet.max_row
        sheet.cell(row=r, column=5).number_format = "yyyy-mm-dd"
        sheet.cell(row=r, column=6).number_format = "yyyy-mm-dd hh:mm:ss"
    book.save(out_xlsx)

    frame = pd.read_excel(out_xlsx, sheet_name="random data", header=1, dtype=object, engine="openpyxl")

    def text(value):
        if value is None or value is pd.NaT or (isinstance(value, float) and math.isnan(value)):
            return None
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (pd.Timestamp, dt.datetime)):
            return value.strftime("%Y-%m-%dT%H:%M:%S")
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):
            return js_number_text(value)
        return None if str(value).strip() == "" else str(value)

    rows = [[text(v) for v in row] for row in frame.itertuples(index=False)]
    with open(out_json, "w", encoding="utf-8") as f:
        json.dump({"columns": [str(c) for c in frame.columns], "rows": rows}, f, ensure_ascii=False)


if __name__ == "__main__":
    main()
