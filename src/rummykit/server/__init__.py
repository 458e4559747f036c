"""The multiplayer server: tables, seats, versioned events per viewer, storage.

``rummykit.server.app.create_app(settings)`` builds the FastAPI application;
``rummykit serve`` runs it with uvicorn. The wire protocol is in ``docs/protocol.md``.
Nothing heavy is imported here, so the command line stays quick to start.
"""
