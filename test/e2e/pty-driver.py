# Drive a program in a pseudo-terminal (for interactive `toolbox init` tests): for each step
# "WAIT<TAB>SEND", wait until WAIT appears in the output, then type SEND. Prints the exit code.
# PTY_LOG=FILE also saves everything the program wrote to the terminal (prompts, result) in FILE.
import fcntl, json, os, pty, select, struct, sys, termios, time

steps = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    # PTY_SIZE=ROWSxCOLS gives the terminal a size (a fresh pty has 0 columns, and toolbox shows no
    # spinner on a terminal without a width).
    if os.environ.get('PTY_SIZE'):
        rows, cols = (int(x) for x in os.environ['PTY_SIZE'].split('x'))
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))
    os.execvp(sys.argv[2], sys.argv[2:])

buf = b''
log = open(os.environ['PTY_LOG'], 'wb') if os.environ.get('PTY_LOG') else None
def read_until(token, deadline):
    global buf
    while token.encode() not in buf and time.time() < deadline:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                return
            if not chunk:
                return
            buf += chunk
            if log:
                log.write(chunk)

for wait, send in steps:
    read_until(wait, time.time() + 30)
    if wait.encode() not in buf:
        sys.stderr.write('never saw %r in %r\n' % (wait, buf[-500:]))
        os.kill(pid, 9)
        break
    buf = b''
    time.sleep(0.1)
    os.write(fd, send.encode())

while True:
    try:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            if log:
                log.write(chunk)
    except OSError:
        break
_, status = os.waitpid(pid, 0)
if log:
    log.close()
print(os.waitstatus_to_exitcode(status))
