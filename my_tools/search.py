"""Web search through the Brave Search API (https://api.search.brave.com), key in BRAVE_API_KEY.

Returns the top pages as title, URL and snippet, and a short numbered list for the model (the raw
API answer is dozens of fields per page: the model needs three). BRAVE_SEARCH_URL overrides the
endpoint (tests point it at a local server that answers like the real API). Nothing is made up:
when the service cannot be reached or refuses the key, the call fails and says so.
"""

import html
import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request

SEARCH_URL = "https://api.search.brave.com/res/v1/web/search"
TIMEOUT_SECONDS = 10
TAGS = re.compile(r"<[^>]+>")


def _clean(text):
    # Brave marks matches with <strong>; the model reads plain text.
    return html.unescape(TAGS.sub("", text or "")).strip()


def _fetch(query, count):
    key = os.environ.get("BRAVE_API_KEY")
    if not key:
        raise RuntimeError("BRAVE_API_KEY is not set: get a key at https://brave.com/search/api/ and export it")
    base = os.environ.get("BRAVE_SEARCH_URL", SEARCH_URL)
    url = base + "?" + urllib.parse.urlencode({"q": query, "count": count, "safesearch": "moderate"})
    host = urllib.parse.urlsplit(base).netloc or base
    request = urllib.request.Request(
        url, headers={"Accept": "application/json", "X-Subscription-Token": key, "User-Agent": "toolbox-search/1.0"}
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as err:
        hint = "; check BRAVE_API_KEY" if err.code in (401, 403) else ""
        raise RuntimeError(f"the search service at {host} answered HTTP {err.code}: {err.reason}{hint}") from None
    except (urllib.error.URLError, OSError) as err:
        reason = getattr(err, "reason", err)
        raise RuntimeError(f"cannot reach the search service at {host}: {reason}; this tool needs internet access") from None
    except ValueError:
        raise RuntimeError(f"the search service at {host} returned a response that is not JSON") from None


def web_search(query, count=5):
    """The top `count` web pages for `query`: title, URL, snippet, and a numbered summary."""
    if not isinstance(query, str) or not query.strip():
        raise ValueError("query is empty: say what to search for")
    data = _fetch(query.strip(), count)
    pages = ((data.get("web") or {}).get("results")) or []
    results = [
        {"title": _clean(p.get("title")), "url": p.get("url", ""), "snippet": _clean(p.get("description"))}
        for p in pages[:count]
    ]
    if not results:
        summary = f'No web results for "{query.strip()}".'
    else:
        lines = [f'{len(results)} result(s) for "{query.strip()}":']
        for i, r in enumerate(results, 1):
            lines.append(f"{i}. {r['title']}\n   {r['url']}" + (f"\n   {r['snippet']}" if r["snippet"] else ""))
        summary = "\n".join(lines)
    return {"query": query.strip(), "results": results, "summary": summary}
