// Quoting paths for the shell the way a careful person types them: "-" becomes "./-",
// names with spaces or odd characters go in single quotes.

export function quotePath(path: string): string {
  const safe = path.startsWith('-') ? `./${path}` : path;
  return /^[\w./@%+=:,-]+$/.test(safe) ? safe : `'${safe.replace(/'/g, `'\\''`)}'`;
}

export function joinPath(dir: string, name: string): string {
  if (dir === '' || dir === '.') return name;
  return dir.endsWith('/') ? dir + name : `${dir}/${name}`;
}
