import { ExitCode, ToolboxError } from '../../errors.js';
import type { HttpConfig } from '../../contract/types.js';
import { exactParam, fill, fillEnv, fillValue, lookup } from '../../contract/template.js';

/** A request ready for fetch. */
export interface HttpRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Every form a secret value can take in text a server sends back or an error shows: as is,
 * URL-encoded (also with + for spaces), JSON-escaped, hex, and base64 / base64url at any byte
 * offset (the part of the encoding that depends only on the secret, so base64("user:" + key) in a
 * Basic header is caught too; at least 8 characters, to avoid false hits).
 */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set<string>([secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+')]);
  forms.add(JSON.stringify(secret).slice(1, -1));
  forms.add(bytes.toString('hex'));
  forms.add(bytes.toString('hex').toUpperCase());
  for (let k = 0; k < 3; k++) {
    const shifted = Buffer.concat([Buffer.alloc(k), bytes]);
    const from = Math.ceil((8 * k) / 6);
    const to = Math.floor((8 * (k + bytes.length)) / 6);
    for (const enc of ['base64', 'base64url'] as const) {
      const part = shifted.toString(enc).slice(from, to);
      if (part.length >= 8) forms.add(part);
    }
  }
  return [...forms].filter((f) => f.length > 0);
}

/** Replaces every secret value (from `${VAR}`), in every encoding of secretForms, with *** in text shown to people. */
export function redactor(secrets: string[]): (s: string) => string {
  const list = [...new Set(secrets.filter((s) => s.length > 0).flatMap(secretForms))].sort(
    (a, b) => b.length - a.length,
  );
  return (s) => list.reduce((acc, secret) => acc.split(secret).join('***'), s);
}

/** A `{{param}}` value in the URL path: one segment, never `.` or `..` (which would climb the path). */
function pathSegment(v: string): string {
  if (/^(\.|%2e){1,2}$/i.test(v))
    throw new ToolboxError('http_dot_segment', `a URL path argument cannot be '${v}' (it would climb the URL path)`, {
      exitCode: ExitCode.usage,
      hint: 'Pass a name, not a relative path segment.',
    });
  return encodeURIComponent(v);
}

/**
 * Fill the templates of an http loader_config. `${VAR}` is replaced first, then `{{param}}`, so an
 * argument can never smuggle in an environment value. Parameters are URL-encoded inside the URL;
 * query values are encoded by URLSearchParams; a query entry that is exactly `{{param}}` with the
 * argument missing is left out. GET and HEAD send no body. An object body is sent as JSON with the
 * argument's own type where a string is exactly `{{param}}`.
 */
export function buildRequest(
  cfg: HttpConfig,
  args: Record<string, unknown>,
  env: Record<string, string>,
  redact: (s: string) => string,
): HttpRequest {
  const withEnv = (s: string) => fillEnv(s, env);
  const method = (cfg.method ?? (cfg.body === undefined ? 'GET' : 'POST')).toUpperCase();
  // In the path (before ? or #) a value is one segment and never a dot segment; after it, a query value.
  const tpl = withEnv(cfg.url);
  const cut = tpl.search(/[?#]/);
  const raw =
    cut < 0
      ? fill(tpl, args, pathSegment)
      : fill(tpl.slice(0, cut), args, pathSegment) + fill(tpl.slice(cut), args, encodeURIComponent);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolboxError(
      'http_invalid_url',
      `loader_config.url is not a valid URL after substitution: ${redact(raw)}`,
      {
        exitCode: ExitCode.registry,
        hint: 'The URL template must start with http:// or https:// and a host; {{params}} are URL-encoded.',
      },
    );
  }
  for (const [key, tpl] of Object.entries(cfg.query ?? {})) {
    const only = exactParam(tpl);
    if (only !== undefined) {
      const v = lookup(args, only);
      if (v === undefined || v === null) continue;
    }
    url.searchParams.append(key, fill(withEnv(tpl), args));
  }
  const headers: Record<string, string> = {};
  for (const [key, tpl] of Object.entries(cfg.headers ?? {})) headers[key.toLowerCase()] = fill(withEnv(tpl), args);
  for (const [k, v] of Object.entries(headers)) {
    if (/[\r\n]/.test(v)) {
      throw new ToolboxError('http_invalid_header', `header '${k}' would contain a line break after substitution`, {
        exitCode: ExitCode.usage,
      });
    }
  }

  let body: string | undefined;
  if (cfg.body !== undefined && method !== 'GET' && method !== 'HEAD') {
    if (typeof cfg.body === 'string') {
      body = fill(withEnv(cfg.body), args);
      headers['content-type'] ??= 'text/plain; charset=utf-8';
    } else {
      body = JSON.stringify(fillValue(cfg.body, args, withEnv));
      headers['content-type'] ??= 'application/json';
    }
  }
  headers['accept'] ??= 'application/json, text/plain;q=0.9, */*;q=0.8';
  return { method, url, headers, body };
}
