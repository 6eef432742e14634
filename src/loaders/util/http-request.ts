import { ExitCode, ToolboxError } from '../../errors.js';
import type { HttpConfig } from '../../contract/types.js';
import { exactParam, fill, fillEnv, fillValue, lookup } from './template.js';

/** A request ready for fetch. */
export interface HttpRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/** Replaces every secret value (from `${VAR}`) with *** in text shown to people. */
export function redactor(secrets: string[]): (s: string) => string {
  const list = secrets.filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  return (s) => list.reduce((acc, secret) => acc.split(secret).join('***'), s);
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
  const raw = fill(withEnv(cfg.url), args, encodeURIComponent);
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
