import { Link } from 'react-router';
import { t } from '../i18n/index.ts';
import { Empty } from '../ui/States.tsx';

export default function NotFound() {
  return (
    <main id="main" className="auth-page">
      <Empty title={t.errors.notFound}>
        <Link to="/">{t.app.name}</Link>
      </Empty>
    </main>
  );
}
