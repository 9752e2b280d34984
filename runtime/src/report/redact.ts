// What the runtime writes on its Job (the message annotation, Events) is readable by anyone with
// `view` on the namespace. Much of it is Zeta's and the connectors' own text — an exception's
// message, which often quotes a JDBC URL or a connection property with its password. Before it
// leaves the Pod, credentials in URLs and `password=`-like pairs are replaced by `***`, and Zeta's
// part is cut short; the runtime's log keeps the whole text.

/** How much of Zeta's error text goes into a message on the Job. */
export const MAX_ENGINE_TEXT = 512;

const SECRET_KEYS =
  'password|passwd|pwd|pass|secret|token|apikey|api[_-]?key|access[_-]?key(?:[_-]?id)?|secret[_-]?(?:access[_-]?)?key|private[_-]?key|credentials?|auth(?:orization)?|sasl\\.jaas\\.config';

const RULES: ReadonlyArray<[RegExp, string]> = [
  // Authorization: Bearer …
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 ***'],
  // scheme://user:password@host
  [/([a-z][a-z0-9+.-]*:\/\/)([^/\s:@]*):([^@\s/]+)@/gi, '$1$2:***@'],
  // "password": "…" or 'password': '…' (JSON, maps printed by Java)
  [
    new RegExp(`(["'])((?:[\\w.-]*?)(?:${SECRET_KEYS}))\\1(\\s*[:=]\\s*)(?:"[^"]*"|'[^']*'|[^\\s,;&)}\\]]+)`, 'gi'),
    '$1$2$1$3***',
  ],
  // password=…, password: …, ;pwd=…, ?token=… (JDBC URLs, connection properties)
  [
    new RegExp(`\\b((?:[\\w.-]*?)(?:${SECRET_KEYS}))(\\s*[:=]\\s*)(?:"[^"]*"|'[^']*'|[^\\s,;&)}\\]'"]+)`, 'gi'),
    '$1$2***',
  ],
];

/** `text` with credentials replaced by `***`. */
export function redact(text: string): string {
  return RULES.reduce((t, [re, by]) => t.replace(re, by), text);
}

/** Zeta's error text for a message on the Job: its first line, without credentials, at most MAX_ENGINE_TEXT characters. */
export function engineText(text: string | undefined): string {
  const first = redact((text ?? '').split('\n')[0].trim());
  return first.length <= MAX_ENGINE_TEXT ? first : `${first.slice(0, MAX_ENGINE_TEXT - 1)}…`;
}
