"""Parses a scrape of /metrics (stdin) with the Prometheus project's own Python client, strictly as the format
named on the command line ("prometheus" text or "openmetrics"), and prints what a series budget is checked on:
the number of series (samples), the most buckets any histogram series has, every value of the `step` label, and
the number of series shapes: series told apart by their labels other than `le` and those whose values are a fixed
list (a step's outcome, a job's status, an HTTP status), which only a label carrying names can make grow."""
import json
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families as openmetrics_families
from prometheus_client.parser import text_string_to_metric_families as text_families

parse = openmetrics_families if sys.argv[1] == "openmetrics" else text_families
series = 0
families = 0
buckets = {}
steps = set()
shapes = set()
FIXED = {"le", "outcome", "status"}
for family in parse(sys.stdin.read()):
    families += 1
    for sample in family.samples:
        series += 1
        shapes.add((family.name, tuple(sorted((k, v) for k, v in sample.labels.items() if k not in FIXED))))
        if "step" in sample.labels:
            steps.add(sample.labels["step"])
        if sample.name.endswith("_bucket"):
            key = (sample.name, tuple(sorted((k, v) for k, v in sample.labels.items() if k != "le")))
            buckets[key] = buckets.get(key, 0) + 1
print(json.dumps({"families": families, "series": series, "shapes": len(shapes),
                  "maxBuckets": max(buckets.values(), default=0), "steps": sorted(steps)}))
