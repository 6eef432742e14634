"""Send a plain-text email through an SMTP server configured by environment variables.

SMTP_HOST and SMTP_FROM are required; SMTP_PORT (default 587, or 465 with SMTP_SECURITY=ssl),
SMTP_USER / SMTP_PASSWORD (login, when the server needs it) and SMTP_SECURITY (starttls, ssl or
none; default starttls) are optional. Values are never echoed back: errors name variables only.
"""

import os
import smtplib
import socket
import ssl
from email.message import EmailMessage
from email.utils import formatdate, getaddresses, make_msgid

TIMEOUT_SECONDS = 20


def _via_proxy(host, port, timeout):
    """A TCP connection to host:port through the SOCKS5 proxy in ALL_PROXY (toolbox's egress proxy:
    a tool with the network open has no other way out), or a direct one when none is set."""
    proxy = os.environ.get("ALL_PROXY") or os.environ.get("all_proxy") or ""
    if not proxy.startswith("socks5"):
        return socket.create_connection((host, port), timeout)
    p_host, p_port = proxy.split("://", 1)[1].rstrip("/").rsplit(":", 1)
    s = socket.create_connection((p_host, int(p_port)), timeout)
    name = host.encode("idna")
    s.sendall(b"\x05\x01\x00")
    if s.recv(2) != b"\x05\x00":
        s.close()
        raise OSError("the proxy refused the SOCKS5 greeting")
    s.sendall(b"\x05\x01\x00\x03" + bytes([len(name)]) + name + int(port).to_bytes(2, "big"))
    reply = s.recv(10)
    if len(reply) < 2 or reply[1] != 0:
        s.close()
        why = {2: "not allowed by the egress policy", 4: "host unreachable", 5: "connection refused"}
        raise OSError(f"the egress proxy did not connect: {why.get(reply[1] if len(reply) > 1 else -1, 'refused')}")
    return s


class _SMTP(smtplib.SMTP):
    def _get_socket(self, host, port, timeout):
        return _via_proxy(host, port, timeout)


class _SMTPSSL(smtplib.SMTP_SSL):
    def _get_socket(self, host, port, timeout):
        return self.context.wrap_socket(_via_proxy(host, port, timeout), server_hostname=self._host)
SECURITY_MODES = ("starttls", "ssl", "none")


def _addresses(value, field):
    if value is None:
        return []
    items = [value] if isinstance(value, str) else list(value)
    found = []
    for name, addr in getaddresses(items):
        if "@" not in addr or addr.startswith("@") or addr.endswith("@"):
            raise ValueError(f"'{field}' has an invalid email address: {addr or name or '(empty)'!r}")
        found.append(f"{name} <{addr}>" if name else addr)
    return found


def _config():
    missing = [name for name in ("SMTP_HOST", "SMTP_FROM") if not os.environ.get(name)]
    if missing:
        raise RuntimeError(
            "email is not configured: set " + ", ".join(missing)
            + " (and SMTP_USER / SMTP_PASSWORD if your server needs a login) in the environment toolbox runs in"
        )
    security = os.environ.get("SMTP_SECURITY", "starttls").strip().lower()
    if security not in SECURITY_MODES:
        raise RuntimeError(f"SMTP_SECURITY must be one of {', '.join(SECURITY_MODES)}")
    port_text = os.environ.get("SMTP_PORT") or ("465" if security == "ssl" else "587")
    if not port_text.isdigit():
        raise RuntimeError("SMTP_PORT must be a port number such as 587")
    user, password = os.environ.get("SMTP_USER"), os.environ.get("SMTP_PASSWORD")
    if bool(user) != bool(password):
        raise RuntimeError("set both SMTP_USER and SMTP_PASSWORD, or neither")
    return {
        "host": os.environ["SMTP_HOST"], "port": int(port_text), "security": security,
        "user": user, "password": password, "sender": os.environ["SMTP_FROM"],
    }


def send_email(to, subject, body, cc=None):
    """Send `body` as a UTF-8 plain-text email to `to` (and `cc`); returns who it went to."""
    recipients = _addresses(to, "to")
    copies = _addresses(cc, "cc")
    if not recipients:
        raise ValueError("'to' must name at least one recipient, e.g. zhangsan@example.com")
    if not subject.strip():
        raise ValueError("'subject' must not be empty")
    cfg = _config()

    message = EmailMessage()
    message["From"] = cfg["sender"]
    message["To"] = ", ".join(recipients)
    if copies:
        message["Cc"] = ", ".join(copies)
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=True)
    message["Message-ID"] = make_msgid(domain=cfg["sender"].rsplit("@", 1)[-1].strip("> "))
    message.set_content(body)

    try:
        if cfg["security"] == "ssl":
            server = _SMTPSSL(cfg["host"], cfg["port"], timeout=TIMEOUT_SECONDS, context=ssl.create_default_context())
        else:
            server = _SMTP(cfg["host"], cfg["port"], timeout=TIMEOUT_SECONDS)
        with server:
            if cfg["security"] == "starttls":
                server.starttls(context=ssl.create_default_context())
            if cfg["user"]:
                server.login(cfg["user"], cfg["password"])
            refused = server.send_message(message)
    except smtplib.SMTPAuthenticationError:
        raise RuntimeError("the SMTP server rejected the login; check SMTP_USER and SMTP_PASSWORD") from None
    except smtplib.SMTPRecipientsRefused as err:
        raise RuntimeError("the SMTP server refused every recipient: " + ", ".join(err.recipients)) from None
    except smtplib.SMTPNotSupportedError as err:
        raise RuntimeError(f"the SMTP server does not support this: {err}; try SMTP_SECURITY=ssl or none") from None
    except smtplib.SMTPException as err:
        raise RuntimeError(f"sending failed at the SMTP server: {err}") from None
    except OSError as err:
        raise RuntimeError(
            f"cannot reach the SMTP server at {cfg['host']}:{cfg['port']}: {err}; this tool needs network access to it"
        ) from None

    return {
        "sent": True,
        "to": recipients,
        "cc": copies,
        "subject": subject,
        "message_id": message["Message-ID"],
        "refused": sorted(refused),
    }
