export function Footer() {
  return (
    <footer className="site-footer">
      <p>All Rights Reserved</p>
    </footer>
  );
}
