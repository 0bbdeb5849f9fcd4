#!/bin/bash
# usage: PY=venv/bin/python bench/parquet-load/all.sh [OUT]  (a venv with datasets, as ../shared/tools/trl-check sets up)
# every format and layout: a Parquet run and a JSONL run of the same settings load equal in datasets
HERE=$(cd "$(dirname "$0")" && pwd); CLI="node $HERE/../../dist/src/cli/main.js"; PY=${PY:-python3}
R=${1:-/tmp/pqall}; rm -rf $R; mkdir -p $R
run() { n=$1; shift; $CLI generate --domain blocksworld,ferry --count 10 --seed 3 --workers 2 --quiet "$@" --out $R/$n-jsonl && $CLI generate --domain blocksworld,ferry --count 10 --seed 3 --workers 2 --quiet "$@" --parquet --out $R/$n-parquet || echo "GENERATE FAILED $n"; 
  echo "== $n"; HF_DATASETS_OFFLINE=1 $PY $HERE/check.py $R/$n-parquet $R/$n-jsonl 2>&1 | grep -E "differ|plain|Error|assert" ; }
for f in native trl openrlhf math-shepherd pairs trajectories processbench feedback verifier; do run $f --format $f; done
run pairs-chat --format pairs --chat
run trajectories-chat --format trajectories --chat
run verifier-chat --format verifier --chat
run verifier-rrm --format verifier --style rrm
run feedback-dialogue --format feedback --style dialogue
du -sh $R/*/data | sort -k2
