#!/usr/bin/env bash
# The messages the pipeline reads, one JSON object a line, ids 1 … N (default 10 000), for a producer:
#   bash messages.sh | kafka-console-producer.sh --bootstrap-server kafka.example:9092 --topic events
# check.sql expects exactly these (its "expected" line is made from the same formula, in SQL).
set -euo pipefail
n="${1:-10000}"
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "usage: messages.sh [count]" >&2; exit 2; }
seq 1 "$n" | awk '{ printf "{\"id\":%d,\"name\":\"event-%d\",\"amount\":%d.%02d}\n", $1, $1, ($1 % 1000) / 100, $1 % 100 }'
