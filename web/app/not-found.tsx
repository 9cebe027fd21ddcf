// The 404 page the worker serves to browsers for unknown pages.
export default function NotFound() {
  return (
    <main>
      <h1>Page not found</h1>
      <p>
        There is nothing here. <a href="/">Go to the start page</a>.
      </p>
    </main>
  );
}
