# The Excel benchmark's anchor: writes a CSV (the dry run's CSV output, so the same rows) as an
# XLSX with xlsxwriter's constant_memory mode, number and date columns typed as the engine does.
# python3 xlsxwriter-write.py IN.csv OUT.xlsx KINDS   (KINDS: one letter per column, n s or d)
import csv
import datetime
import resource
import sys

import xlsxwriter

source, target, kinds = sys.argv[1], sys.argv[2], sys.argv[3].split(',')
book = xlsxwriter.Workbook(target, {'constant_memory': True})
sheet = book.add_worksheet('data')
date_format = book.add_format({'num_format': 'yyyy-mm-dd hh:mm:ss'})
with open(source, newline='', encoding='utf-8') as f:
    rows = csv.reader(f)
    sheet.write_row(0, 0, next(rows))
    for r, row in enumerate(rows, 1):
        for c, value in enumerate(row):
            if value == '':
                continue
            kind = kinds[c]
            if kind == 'n':
                sheet.write_number(r, c, float(value))
            elif kind == 'd':
                sheet.write_datetime(r, c, datetime.datetime.fromisoformat(value), date_format)
            else:
                sheet.write_string(r, c, value)
book.close()
print(f'\n@@maxrss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}', file=sys.stderr)
