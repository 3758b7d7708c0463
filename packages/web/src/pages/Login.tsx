import { ErrorMessage } from '../components/common';
import { type FormEvent, useState } from 'react';
import { endedReason, logIn, type Session } from '../session';

export function Login({ onSession }: { onSession: (s: Session) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const reason = endedReason();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSession(await logIn(username, password));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <main className="login">
      <h1>AIDE Metastore</h1>
      {reason && !error && (
        <p role="status" className="notice">
          {reason}
        </p>
      )}
      <form onSubmit={(e) => void submit(e)}>
        <label>
          Email
          <input
            type="email"
            autoComplete="username"
            required
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </label>
        <label>
          Password
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {error !== null && <ErrorMessage error={error} />}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
