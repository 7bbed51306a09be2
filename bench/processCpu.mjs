import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds a process has used (user and system), from /proc: 0 when it has gone. */
export function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, in clock ticks of 1/100 s (USER_HZ).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of every PostgreSQL process of this machine: the bench's own server's only when it runs alone. */
export function postgresCpuSeconds() {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += cpuSecondsOf(entry);
    } catch {}
  }
  return total;
}
