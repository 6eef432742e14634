# Inside a tool's sandbox with the network open: the namespace has no route out, only toolbox's
# egress proxy on a Unix socket (env TOOLBOX_EGRESS_SOCKET). A daemon thread forwards a loopback TCP
# port to it, and the proxy variables point at that port, so requests, urllib, httpx, pip and
# subprocesses (curl, git) reach the internet through the proxy. One thread for every connection
# (select loop): threads count against the tool's process limit.
import os
import selectors
import socket
import threading


def _serve(srv, path, preamble):
    sel = selectors.DefaultSelector()
    sel.register(srv, selectors.EVENT_READ)
    peer = {}
    done = {}

    def close(s):
        for x in (s, peer.get(s)):
            if x is None:
                continue
            try:
                sel.unregister(x)
            except (KeyError, ValueError):
                pass
            x.close()
            peer.pop(x, None)
            done.pop(x, None)

    while True:
        for key, _ in sel.select():
            s = key.fileobj
            if s is srv:
                try:
                    c, _ = srv.accept()
                except OSError:
                    continue
                u = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    u.connect(path)
                    # The policy's token first (the proxy refuses a connection without it).
                    u.sendall(preamble)
                except OSError:
                    c.close()
                    u.close()
                    continue
                peer[c], peer[u] = u, c
                done[c] = done[u] = False
                sel.register(c, selectors.EVENT_READ)
                sel.register(u, selectors.EVENT_READ)
                continue
            other = peer.get(s)
            if other is None:
                continue
            try:
                data = s.recv(65536)
            except OSError:
                data = None
            if data:
                try:
                    other.sendall(data)
                except OSError:
                    close(s)
                continue
            if data is None or done.get(other):
                close(s)
                continue
            # EOF one way: pass it on, keep the other way open.
            done[s] = True
            try:
                sel.unregister(s)
                other.shutdown(socket.SHUT_WR)
            except OSError:
                close(s)


def setup():
    path = os.environ.pop("TOOLBOX_EGRESS_SOCKET", None)
    token = os.environ.pop("TOOLBOX_EGRESS_TOKEN", "")
    if not path:
        return
    preamble = ("TBX1 %s\n" % token).encode("ascii")
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(64)
    port = srv.getsockname()[1]
    threading.Thread(target=_serve, args=(srv, path, preamble), daemon=True, name="toolbox-egress").start()
    url = "http://127.0.0.1:%d" % port
    socks = "socks5h://127.0.0.1:%d" % port
    for k in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        os.environ[k] = url
    os.environ["ALL_PROXY"] = os.environ["all_proxy"] = socks
    os.environ["NO_PROXY"] = os.environ["no_proxy"] = ""
