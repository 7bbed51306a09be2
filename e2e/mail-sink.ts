import { createServer } from 'node:http';
import { SMTPServer } from 'smtp-server';

/**
 * A local mail server for the browser journeys: the app sends its reminders and alerts here by SMTP
 * (loopback only), and a journey reads what arrived from `GET /messages` on the HTTP port.
 */
const smtpPort = Number(process.env.MAIL_SINK_SMTP_PORT);
const httpPort = Number(process.env.MAIL_SINK_HTTP_PORT);
if (!smtpPort || !httpPort) throw new Error('Set MAIL_SINK_SMTP_PORT and MAIL_SINK_HTTP_PORT');

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  receivedAt: string;
}
const received: ReceivedMail[] = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((each) => each.address),
        raw: Buffer.concat(chunks).toString('utf8'),
        receivedAt: new Date().toISOString(),
      });
      callback();
    });
  },
});
smtp.listen(smtpPort, '127.0.0.1');

createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/messages') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
    return;
  }
  response.writeHead(404).end();
}).listen(httpPort, '127.0.0.1');
