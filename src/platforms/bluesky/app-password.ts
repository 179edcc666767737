// The shape of a Bluesky app password, so Herald can tell one from an account password before sending it anywhere.

const APP_PASSWORD = /^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/;

/** `xxxx-xxxx-xxxx-xxxx`, lowercase letters and digits (as Bluesky generates them). */
export function isAppPassword(value: unknown): value is string {
  return typeof value === 'string' && APP_PASSWORD.test(value);
}
