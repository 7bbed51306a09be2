import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** Scripts come only from our own origin and the operator's configured module origins. */
export function registerSecurityHeaders(app: FastifyInstance, moduleOrigins: string[]): void {
  app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...moduleOrigins],
        connectSrc: ["'self'", ...moduleOrigins],
        // antd writes its styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Served over plain http on a clinic's network too; HSTS belongs to the TLS terminator.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
  });
}
