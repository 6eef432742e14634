// A small SMTP server on 127.0.0.1 that speaks just enough of RFC 5321 for Python's smtplib
// (EHLO/HELO, AUTH PLAIN, MAIL, RCPT, DATA with dot-unstuffing, RSET, NOOP, QUIT) and keeps
// every message it accepts.
import { createServer, type Server, type Socket } from 'node:net';
import { listen } from './shipped-helpers.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
  authUser?: string;
}

export interface SmtpFixture {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtp(opts: { user?: string; password?: string } = {}): Promise<SmtpFixture> {
  const mails: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    let buf = '';
    let inData = false;
    let authUser: string | undefined;
    let current: ReceivedMail = { from: '', to: [], data: '' };
    const reply = (s: string) => sock.write(s + '\r\n');
    reply('220 localhost test ESMTP');
    sock.setEncoding('utf8');
    sock.on('data', (chunk: string) => {
      buf += chunk;
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buf
            .slice(0, end + 2)
            .split('\r\n')
            .map((l) => (l.startsWith('..') ? l.slice(1) : l))
            .join('\r\n');
          buf = buf.slice(end + 5);
          inData = false;
          mails.push({ ...current, authUser });
          current = { from: '', to: [], data: '' };
          reply('250 2.0.0 queued');
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const verb = line.split(' ')[0]!.toUpperCase();
        if (verb === 'EHLO') {
          sock.write('250-localhost\r\n250-8BITMIME\r\n' + (opts.user ? '250-AUTH PLAIN\r\n' : '') + '250 HELP\r\n');
        } else if (verb === 'HELO') reply('250 localhost');
        else if (verb === 'AUTH') {
          const [, mech, initial] = line.split(' ');
          const parts = Buffer.from(initial ?? '', 'base64')
            .toString('utf8')
            .split('\0');
          if (mech?.toUpperCase() === 'PLAIN' && parts[1] === opts.user && parts[2] === opts.password) {
            authUser = parts[1];
            reply('235 2.7.0 Authentication successful');
          } else reply('535 5.7.8 Authentication credentials invalid');
        } else if (verb === 'MAIL') {
          if (opts.user && !authUser) reply('530 5.7.0 Authentication required');
          else {
            current.from = /<([^>]*)>/.exec(line)?.[1] ?? '';
            reply('250 2.1.0 OK');
          }
        } else if (verb === 'RCPT') {
          current.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 2.1.5 OK');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'RSET') {
          current = { from: '', to: [], data: '' };
          reply('250 OK');
        } else if (verb === 'NOOP') reply('250 OK');
        else if (verb === 'QUIT') {
          reply('221 Bye');
          sock.end();
          return;
        } else reply('502 5.5.2 Command not recognized');
      }
    });
  });
  const port = await listen(server);
  return {
    port,
    mails,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
