# load_dataset(DIR) on Parquet and JSONL folders of the same run: same features (the card's), same rows
import sys
from datasets import load_dataset
pq, js = sys.argv[1], sys.argv[2]
a, b = load_dataset(pq), load_dataset(js)
for split in b:
    assert a[split].features == b[split].features, (split, a[split].features, b[split].features)
    ra, rb = a[split].to_list(), b[split].to_list()
    diff = sum(1 for x, y in zip(ra, rb) if x != y)
    print(f"{split}: parquet {len(ra)} rows, jsonl {len(rb)} rows, {diff} differ; features equal")
print("features:", str(a["train"].features)[:300])
# the same files without the card: the Parquet schema alone gives the card's features
import glob, os
files = {s: sorted(glob.glob(os.path.join(pq, "data", f"{s}-*.parquet"))) for s in a}
raw = load_dataset("parquet", data_files=files)
print("plain parquet builder (no card): features equal the card's:", all(raw[s].features == a[s].features for s in raw))
