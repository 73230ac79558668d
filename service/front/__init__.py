"""The HTTP/2 front's supervisor: nghttpx run as a child whose log lines leave as JSON, with
certificate files checked before nghttpx may read them (``python -m service.front``)."""
