import { ApiError, type EmuResponse } from '../http/types.js';

/** A `{message}` response (200 unless given): the shape of the identity and blueprint actions. */
export function message(text: string, status = 200): EmuResponse {
  return { status, body: { message: text } };
}

/** A `{status, message}` response, the shape of asynchronous accepts and deletes. */
export function statusMessage(status: number, state: string, text: string): EmuResponse {
  return { status, body: { status: state, message: text } };
}

/** A 400 whose single detail names `field` (`roles[1].id`), with `text` saying what is wrong. */
export function badField(
  field: string,
  text: string,
  code: 'invalid_request' | 'already_exists' = 'invalid_request',
): ApiError {
  return new ApiError(400, code, `${field} ${text}`, [{ field, message: text }]);
}
