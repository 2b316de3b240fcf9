#!/usr/bin/env python3
"""An independent pandas implementation of engine.md's semantics, for the steps public datasets
exercise: reading CSV and JSON, mapping, data types (numbers, dates), text casing, row dropping
and the CSV output. Written from the spec, not from the TypeScript engine, so the two can check
each other (test/parity/parity.test.ts compares their outputs cell by cell).

Usage: python3 reference.py JOB.json OUT.csv
JOB.json: {"input": path, "mapping": {column: field}, "expectedFields": [...],
           "dataTypes": {field: type}, "casing": {field: casing}, "rowDropping": [{"method", "fields"}]}
"""
import datetime as dt
import io
import json
import math
import re
import sys
from decimal import Decimal

import pandas as pd


# ---- values -------------------------------------------------------------------------------

def is_missing(value):
    """engine.md: absent, null, or a string that is empty or only whitespace."""
    return value is None or (isinstance(value, float) and math.isnan(value)) or (isinstance(value, str) and value.strip() == "")


def js_number_text(x):
    """ECMAScript Number::toString(x): the shortest digits that round-trip, in JavaScript's layout."""
    if x == 0:
        return "0"
    if x < 0:
        return "-" + js_number_text(-x)
    digits, exponent = shortest_digits(x)
    k = len(digits)
    n = exponent + k  # the decimal point sits after n digits
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{mantissa}e{sign}{abs(e)}"


def shortest_digits(x):
    """Python's repr gives the shortest round-tripping digits; returns them and the exponent of the last one."""
    d = Decimal(repr(float(x)))
    sign, digits, exponent = d.as_tuple()
    text = "".join(map(str, digits)).rstrip("0") or "0"
    exponent += len(digits) - len(text)
    return text.lstrip("0") or "0", exponent


# ---- reading ------------------------------------------------------------------------------

def read_input(path):
    """Rows as text (or None for missing), columns in file order."""
    if path.endswith(".json"):
        with open(path, encoding="utf-8") as f:
            rows = json.load(f)  # Python dicts keep the written key order
        columns = []
        for row in rows:
            for key in row:
                if key not in columns:
                    columns.append(key)
        def cell(value):
            if value is None:
                return None
            if isinstance(value, bool):
                return "true" if value else "false"
            if isinstance(value, (int, float)):
                return js_number_text(value)
            if isinstance(value, (dict, list)):
                return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
            return None if is_missing(value) else value
        return pd.DataFrame([[cell(row.get(c)) for c in columns] for row in rows], columns=columns, dtype=object)
    with open(path, encoding="utf-8-sig", newline="") as f:
        header = f.readline()
    delimiter = max([",", ";", "\t", "|"], key=lambda d: header.count(d)) if not path.endswith(".tsv") else "\t"
    frame = pd.read_csv(path, sep=delimiter, dtype=str, keep_default_na=False, na_filter=False, encoding="utf-8-sig")
    return frame.apply(lambda column: column.map(lambda v: None if is_missing(v) else v)).astype(object)


# ---- data types ---------------------------------------------------------------------------

NUMBER = re.compile(r"^(?P<open>\()?(?P<sign>[+-])?(?P<cur>[$€£¥])?(?P<sign2>[+-])?(?P<open2>\()?"
                    r"(?P<int>\d{1,3}(?:,\d{3})+|\d*)(?P<frac>\.\d*)?(?:[eE](?P<exp>[+-]?\d+))?(?P<pct>%)?(?P<close>\))?$")


def parse_number(text):
    """engine.md step 5 `number`, or None when the text is not such a number."""
    t = text.strip()
    m = NUMBER.match(t)
    if not m:
        return None
    opened = bool(m["open"]) or bool(m["open2"])
    if opened != bool(m["close"]) or (m["open"] and m["open2"]):
        return None
    if m["open2"] and not m["cur"]:
        return None
    if opened and (m["sign"] or m["sign2"]):
        return None
    if m["sign"] and m["sign2"]:
        return None
    if not (m["int"] or (m["frac"] and len(m["frac"]) > 1)):
        return None
    mantissa = Decimal((m["int"] or "0").replace(",", "") + (m["frac"] or "").rstrip(".") or "0")
    exponent = int(m["exp"] or 0) - (2 if m["pct"] else 0)
    value = float(mantissa.scaleb(exponent))
    if math.isinf(value):
        return None
    negative = opened or (m["sign"] or m["sign2"]) == "-"
    return -value if negative and value != 0 else (0.0 if value == 0 else value)


TIME_FORMATS = ["", " %H:%M", " %H:%M:%S", "T%H:%M", "T%H:%M:%S"]
NAMED = ["%b %d %Y", "%B %d %Y", "%b %d, %Y", "%B %d, %Y", "%d %b %Y", "%d %B %Y", "%d-%b-%Y", "%d-%B-%Y"]


def parse_date(text, day_first):
    """engine.md step 5 `date_time` for the forms the datasets hold, as `YYYY-MM-DDTHH:mm:ss`, or None."""
    t = " ".join(text.strip().split())
    slash = "%d/%m/%Y" if day_first else "%m/%d/%Y"
    for base in ["%Y-%m-%d", "%Y/%m/%d", slash] + NAMED:
        for time in TIME_FORMATS:
            if base in NAMED and time.startswith("T"):
                continue
            try:
                value = dt.datetime.strptime(t, base + time)
            except ValueError:
                continue
            return value.strftime("%Y-%m-%dT%H:%M:%S")
    return None


def is_slash_date(text):
    return re.match(r"^\s*\d{1,2}/\d{1,2}/\d{4}", text) is not None


def convert(frame, data_types):
    for field, kind in data_types.items():
        if field not in frame.columns:
            continue
        column = frame[field]
        if kind == "number":
            frame[field] = column.map(lambda v: None if v is None else parse_number(v))
        elif kind == "date_time":
            # Day-first when any slash value of the whole column has a first part over 12.
            day_first = any(v is not None and is_slash_date(v) and int(v.strip().split("/")[0]) > 12 for v in column)
            frame[field] = column.map(lambda v: None if v is None else parse_date(v, day_first))
    return frame


# ---- text, row dropping, output ---------------------------------------------------------------

CASINGS = {"upper": str.upper, "lower": str.lower, "title": str.title, "swap": str.swapcase}


def apply_casing(frame, casing, data_types):
    for field, name in casing.items():
        if data_types.get(field) == "number":
            continue  # text rules leave numbers alone
        frame[field] = frame[field].map(lambda v: None if v is None else (lambda out: None if is_missing(out) else out)(CASINGS[name](v)))
    return frame


def drop_rows(frame, rules):
    for rule in rules:
        fields = rule["fields"]
        if rule["method"] == "missingValues":
            frame = frame[~frame[fields].isna().any(axis=1)]
        elif rule["method"] == "duplicateValues":
            # Missing compares equal to missing: pandas' duplicated() treats None/NaN alike.
            frame = frame[~frame[fields].duplicated(keep="first")]
    return frame


def field_text(value):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    text = js_number_text(value) if isinstance(value, float) else str(value)
    if any(ch in text for ch in ',"\r\n') or text.startswith(" ") or text.endswith(" "):
        return '"' + text.replace('"', '""') + '"'
    return text


def main():
    job = json.load(open(sys.argv[1], encoding="utf-8"))
    frame = read_input(job["input"])
    mapping = job["mapping"]
    fields = [f for f in job["expectedFields"] if f in mapping.values()]
    frame = pd.DataFrame({field: frame[[c for c, f in mapping.items() if f == field][0]] for field in fields}, dtype=object)
    frame = convert(frame, job.get("dataTypes", {}))
    frame = apply_casing(frame, job.get("casing", {}), job.get("dataTypes", {}))
    frame = drop_rows(frame, job.get("rowDropping", []))
    out = io.StringIO()
    out.write(",".join(field_text(f) for f in frame.columns) + "\n")
    for row in frame.itertuples(index=False):
        out.write(",".join(field_text(v) for v in row) + "\n")
    with open(sys.argv[2], "w", encoding="utf-8", newline="") as f:
        f.write(out.getvalue())


if __name__ == "__main__":
    main()
