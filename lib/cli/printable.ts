// Text from the cluster (annotations, Event messages, API errors) or from files reaches the
// terminal through the CLI's printers; a control character in it could move the cursor, rewrite
// earlier lines or change the terminal's state. Every human-readable line goes through here.

// C0 controls except tab, DEL, and C1 controls (which UTF-8 terminals may act on too). Matching
// control characters is the point of these patterns.
/* eslint-disable no-control-regex */
const CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;
const CONTROLS_BUT_NEWLINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/* eslint-enable no-control-regex */

const escape = (c: string) =>
  c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `text` with every C0/C1 control character (and DEL) shown as an escape (`\u001b`, `\n`), so it
 * prints as one inert line. `multiline` keeps line breaks, for messages this tool builds over
 * several lines (each line is still escaped).
 */
export function printable(text: string, multiline = false): string {
  return text.replace(multiline ? CONTROLS_BUT_NEWLINE : CONTROLS, escape);
}

/** JSON text with DEL and C1 controls escaped too (JSON.stringify leaves them raw). */
export function printableJson(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, escape);
}
