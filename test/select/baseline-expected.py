import sys, json
sys.path.insert(0, sys.argv[1])
import bm25_baseline as b
tools, queries = b.load(sys.argv[2])
m = b.evaluate(tools, queries, 'ndp+split')
docs = [b.tokenize(f"{t['name']} {t.get('description', '')}" + " " + b.param_text(t.get('parameters') or {}), True) for t in tools]
bm = b.BM25(docs)
ids = [t['id'] for t in tools]
print(json.dumps({'metrics': m, 'rankings': [[ids[i] for i in bm.rank(b.tokenize(q['query'], True), 10)] for q in queries]}, indent=1, ensure_ascii=False))
