#!/usr/bin/env python3
"""check_svg.py TRACE.json IMAGE.svg: the picture tools/trace_image.py drew of a timeline is
well-formed XML (xml.etree parses it), is an SVG, and has one span rectangle per complete event
("ph":"X") of the trace, at least one, each with a tooltip naming it."""
import json
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
trace, image = sys.argv[1], sys.argv[2]
spans = [e for e in json.load(open(trace))["traceEvents"] if e.get("ph") == "X"]
root = ET.parse(image).getroot()
if root.tag != NS + "svg":
    sys.exit(f"check_svg: FAIL: the root is {root.tag}, not svg")
rects = [r for r in root.iter(NS + "rect") if r.get("class") == "span"]
if not rects or len(rects) != len(spans):
    sys.exit(f"check_svg: FAIL: {len(rects)} span rectangles for {len(spans)} spans")
names = {e["name"] for e in spans if e["name"] != "launch"}
tips = " ".join(r.find(NS + "title").text for r in rects)
missing = [n for n in names if n not in tips]
if missing:
    sys.exit(f"check_svg: FAIL: no rectangle for {missing}")
print(f"check_svg: {image}: {len(rects)} spans drawn, one per span of the trace")
