"""Models: the Model protocol, the OpenAI client, the stream reader, strict schemas."""
