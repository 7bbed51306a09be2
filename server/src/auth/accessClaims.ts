import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface AccessTokenClaims {
  sub: string;
  cid: number;
  role: string;
  /** Issued at (seconds), set by the signer. */
  iat?: number;
  /** Issued at in milliseconds: a session begun just before a password change is told from one just after. */
  at?: number;
  /** The session (refresh token family) the token was issued to: signing it out ends what it holds open. */
  sid?: string;
  /** Set only on a sign-in's second-step token (MfaTokenClaims): such a token is no access token. */
  purpose?: undefined;
}

/**
 * The password step's token when a second step follows: `mfa` to send a code, `enroll` to set up the
 * factor the clinic requires. It opens that step alone, for a few minutes.
 */
export interface MfaTokenClaims {
  sub: string;
  cid: number;
  purpose: 'mfa' | 'enroll' | 'password';
  remember: boolean;
  /** The token's own id: spent once it has signed someone in (0029). */
  jti?: string;
  iat?: number;
  exp?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The bearer token's verified claims: null until checked, false when absent or invalid. */
    accessClaims: AccessTokenClaims | false | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  return header.slice('Bearer '.length).trim() || null;
}

export function decorateAccessClaims(app: FastifyInstance): void {
  app.decorateRequest('accessClaims', null);
}

/**
 * The request's access-token claims, its signature and expiry checked once per request (the rate
 * limiter keys on them before the route's guard reads them). A forged or expired token has none.
 */
export function accessClaimsOf(app: FastifyInstance, request: FastifyRequest): AccessTokenClaims | null {
  if (request.accessClaims === null) {
    const token = bearerToken(request);
    let claims: AccessTokenClaims | false = false;
    if (token) {
      try {
        const verified = app.jwt.verify<AccessTokenClaims | MfaTokenClaims>(token);
        // A second-step token is signed with the same key: it must never pass as an access token.
        claims = verified.purpose === undefined ? verified : false;
      } catch {
        claims = false;
      }
    }
    request.accessClaims = claims;
  }
  return request.accessClaims || null;
}

/** The claims of a second-step token of this purpose, or null (forged, expired, another kind). */
export function mfaClaimsOf(app: FastifyInstance, token: string, purpose: MfaTokenClaims['purpose']) {
  try {
    const verified = app.jwt.verify<AccessTokenClaims | MfaTokenClaims>(token);
    return verified.purpose === purpose ? verified : null;
  } catch {
    return null;
  }
}
