/**
 * Keeps secrets out of error messages: every OAuth error the app shows or logs (OAuthFlowError) is
 * built from redactedMessage, which cuts the tokens, codes, verifiers and client secrets it is given
 * out of an error's message and its cause's, in every encoding they commonly appear in (as is,
 * URL-encoded, form-encoded, base64, JSON-escaped), and caps the length.
 */

/** The message of an error (and of its cause), with every given secret, in any common encoding, cut out. */
export function redactedMessage(err: unknown, secrets: (string | undefined)[]): string {
  let text = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error ? (err as { cause?: unknown }).cause : undefined;
  if (cause instanceof Error && !text.includes(cause.message)) text += `: ${cause.message}`;
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    const forms = new Set([
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ v: secret }).toString().slice(2),
      Buffer.from(secret).toString('base64'),
      JSON.stringify(secret).slice(1, -1),
    ]);
    for (const form of forms) text = text.split(form).join('[redacted]');
  }
  return text.slice(0, 500);
}
