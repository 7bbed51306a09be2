/**
 * What a rule or a lookup in the data layer can refuse, in the clinic's words, without knowing of
 * HTTP: data files throw these and `plugins/errors.ts` alone decides the answer's status
 * (docs/architecture.md, Server layers). Each carries the message staff read and, where one field
 * is at fault, that field with its own message, as the form shows it beside the field.
 */
export interface FieldProblem {
  field: string;
  message: string;
}

export abstract class DomainError extends Error {
  constructor(
    message: string,
    readonly errors?: FieldProblem[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The record asked for is not in the clinic (or not there any more). */
export class NotFound extends DomainError {}

/** The write meets what is already stored: a taken time, a duplicate, a record still in use. */
export class Conflict extends DomainError {}

/** The value breaks a rule of the clinic's (a field's format or range the schema cannot say). */
export class InvalidValue extends DomainError {
  /** One field at fault: its message is the answer's too (`Invalid <field>: <message>`). */
  static of(field: string, message: string): InvalidValue {
    return new InvalidValue(`Invalid ${field}: ${message}`, [{ field, message }]);
  }
}

/** The staff member's role may not do this here, though the route lets them ask. */
export class NotAllowed extends DomainError {}

/** Who asks could not be recognised (a wrong password, a spent step). */
export class NotRecognised extends DomainError {}

/** What was asked for existed and has ended (an online hold or code that expired or was used up). */
export class Expired extends DomainError {}

/** Too many tries: wait before asking again. */
export class TooManyTries extends DomainError {}

/** Something the server needs (a key, a service) is missing: not the request's fault. */
export class Unavailable extends DomainError {}
