"use strict";
// The one call every page makes to `kibitz serve`'s JSON API (docs/serve.md): the answer as
// an object, or an Error carrying the server's one-line reason.
async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? {"Content-Type": "application/json"} : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  const data = text ? JSON.parse(text) : {};
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}
