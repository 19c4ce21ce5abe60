/**
 * A message shown on its own (a banner, a line of a bar) reads as a sentence: its first letter in upper
 * case. The background's and the validator's messages are written to be embedded (`Could not …: no crawl
 * x`) and start in lower case; a message that starts with a URL (`http://a.test is already being crawled`)
 * is left as it is. Pure.
 */
export function asSentence(message: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(message)) return message;
  return message.replace(/^[a-z]/, (first) => first.toUpperCase());
}
