#!/usr/bin/env python3
"""An independent pandas implementation of the engine.md steps the public datasets of reference.py
do not exercise: combining (step 4), time-zone and length units (6), imputation (7), regular
expressions and every casing (8), row dropping after them (9) and pivot (10). Written from
engine.md's words, not from the TypeScript engine; reference.py's reading, number and output
helpers are shared. test/parity/steps.test.ts compares its output with `import dry-run`'s.

Usage: python3 steps_reference.py JOB.json OUT.csv
JOB.json: {"input": path, "mapping": {column: field}, "expectedFields": [...], "dataTypes": {...},
           "combining": {field: {"method", "separator", "order"}}, "units": {field: {"from", "to"}},
           "impute": {field: {"method", "value"}}, "regex": {field: [[pattern, replacement], ...]},
           "casing": {...}, "rowDropping": [...], "pivot": {"index", "pivot", "values"}}
"""
import datetime as dt
import io
import json
import os
import re
import sys

import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import field_text, is_missing, parse_number  # noqa: E402

# ---- step 4: combining --------------------------------------------------------------------


def combine(frame, columns, rule):
    order = rule.get("order") or columns
    if rule.get("method", "stringAppend") == "json":
        return frame[order].apply(lambda row: json.dumps({c: (None if is_missing(row[c]) else row[c]) for c in order}, separators=(",", ":"), ensure_ascii=False), axis=1)
    separator = rule.get("separator", "")

    def append(row):
        if all(is_missing(row[c]) for c in order):
            return None
        return separator.join("" if is_missing(row[c]) else row[c] for c in order)
    return frame[order].apply(append, axis=1)


# ---- step 5: the date forms this test uses (ISO with an optional offset; month-first slashes) --

ISO = re.compile(r"^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d))?)?(Z|[+-]\d\d:\d\d)?$")


def parse_date(text, from_hours):
    """`YYYY-MM-DDTHH:mm:ss` of the value's wall time, moved into UTC+from_hours when it has an offset."""
    m = ISO.match(text.strip())
    if not m:
        try:
            return dt.datetime.strptime(text.strip(), "%m/%d/%Y")
        except ValueError:
            return None
    y, mo, d, h, mi, s, zone = m.groups()
    value = dt.datetime(int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0))
    if zone and from_hours is not None:
        offset = 0 if zone == "Z" else (1 if zone[0] == "+" else -1) * (int(zone[1:3]) * 60 + int(zone[4:6]))
        value = value - dt.timedelta(minutes=offset) + dt.timedelta(hours=from_hours)
    return value


def zone_hours(unit):
    """engine.md step 6: UTC_p<n> is UTC+n, UTC_m<n> UTC-n."""
    return (1 if unit[4] == "p" else -1) * float(unit[5:])


def objects(series):
    """A column as Python values with None for missing (pandas' map makes floats and NaN of numbers)."""
    return series.astype(object).where(series.notna(), None)


LENGTH_METRES = {"mm": 0.001, "cm": 0.01, "m": 1, "km": 1000, "in": 0.0254, "ft": 0.3048, "yd": 0.9144, "mi": 1609.344}


def main():
    job = json.load(open(sys.argv[1], encoding="utf-8"))
    raw = pd.read_csv(job["input"], dtype=str, keep_default_na=False)
    types = job.get("dataTypes", {})
    units = job.get("units", {})
    # Steps 3-4: mapping and combining; fields in expectedFields order.
    columns_of = {}
    for column, field in job["mapping"].items():
        columns_of.setdefault(field, []).append(column)
    frame = pd.DataFrame(index=raw.index)
    for field in job["expectedFields"]:
        columns = columns_of[field]
        frame[field] = combine(raw, columns, job.get("combining", {}).get(field, {})) if len(columns) > 1 else raw[columns[0]].map(lambda v: None if is_missing(v) else v)
    frame = frame.astype(object).where(frame.notna(), None)
    # Steps 5-6: types, then units.
    for field, kind in types.items():
        conversion = units.get(field)
        if kind == "number":
            frame[field] = objects(frame[field].map(lambda v: None if v is None else parse_number(v)))
            if conversion:
                factor = LENGTH_METRES[conversion["from"]] / LENGTH_METRES[conversion["to"]]
                frame[field] = objects(frame[field].map(lambda v: None if v is None else float(f"{v * factor:.15g}")))
        elif kind == "date_time":
            from_hours = zone_hours(conversion["from"]) if conversion else None
            shift = dt.timedelta(hours=zone_hours(conversion["to"]) - from_hours) if conversion else dt.timedelta(0)
            frame[field] = frame[field].map(lambda v: None if v is None else (lambda d: None if d is None else (d + shift).strftime("%Y-%m-%dT%H:%M:%S"))(parse_date(v, from_hours)))
    # Step 7: imputation (the fill values this test uses are already of the field's type).
    for field, rule in job.get("impute", {}).items():
        if rule["method"] == "dropMissing":
            frame = frame[frame[field].map(lambda v: v is not None)]
        elif rule["method"] == "fill":
            frame[field] = frame[field].map(lambda v: rule["value"] if v is None else v)
    # Step 8: regular expressions in the order written ($1 -> \g<1>), then casing; empty is missing.
    casings = {
        "upper": str.upper, "lower": str.lower, "title": str.title, "swap": str.swapcase,
        # engine.md: first character upper case, the rest lower case (as in its place in the text).
        "capitalize": lambda s: s[0].upper() + s.capitalize()[len(s[0].title()):] if s else s,
    }
    for field in frame.columns:
        rules = job.get("regex", {}).get(field, [])
        casing = job.get("casing", {}).get(field)
        if (not rules and not casing) or types.get(field) == "number":
            continue

        def process(v, rules=rules, casing=casing):
            for pattern, replacement in rules:
                if v is None:
                    return None
                v = re.sub(pattern, re.sub(r"\$(\d)", r"\\g<\1>", replacement), v)
                v = None if is_missing(v) else v
            if v is not None and casing:
                v = casings[casing](v)
                v = None if is_missing(v) else v
            return v
        frame[field] = frame[field].map(process)
    # Step 9: row dropping, in order; missing equals missing for duplicates.
    for rule in job.get("rowDropping", []):
        fields = rule["fields"]
        if rule["method"] == "missingValues":
            frame = frame[~frame[fields].isna().any(axis=1)]
        else:
            frame = frame[~frame[fields].duplicated(keep="first")]
    # Step 10: pivot; groups and pivot values in first-seen order, the first row's value even if missing.
    pivot = job.get("pivot")
    if pivot:
        index, values = pivot["index"], pivot["values"]
        frame = frame[frame[pivot["pivot"]].notna().all(axis=1)].copy()
        frame["__pivot"] = frame[pivot["pivot"]].apply(lambda row: "_".join(field_text(v) for v in row), axis=1)
        frame["__group"] = frame[index].apply(lambda row: json.dumps([None if v is None else str(v) for v in row]), axis=1)
        firsts = frame.drop_duplicates(subset=["__group", "__pivot"], keep="first")
        groups = list(dict.fromkeys(frame["__group"]))
        names = list(dict.fromkeys(frame["__pivot"]))
        out = frame.drop_duplicates(subset=["__group"], keep="first").set_index("__group")[index].reindex(groups)
        for value in values:
            table = firsts.set_index(["__group", "__pivot"])[value]
            for name in names:
                column = name if len(values) == 1 else f"{value}_{name}"
                out[column] = [table.get((g, name)) for g in groups]
        frame = out.reset_index(drop=True)
    text = io.StringIO()
    text.write(",".join(field_text(f) for f in frame.columns) + "\n")
    for row in frame.itertuples(index=False):
        text.write(",".join(field_text(v) for v in row) + "\n")
    with open(sys.argv[2], "w", encoding="utf-8", newline="") as f:
        f.write(text.getvalue())


if __name__ == "__main__":
    main()
