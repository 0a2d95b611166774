/**
 * Errors of the newer control endpoints (state, requests, jobs, advance, accounts): they answer
 * `{"error": "..."}`, the message naming what is wrong, rather than the API's error envelope.
 */
export class ControlError extends Error {
  constructor(
    readonly httpStatus: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = "ControlError";
  }
}
