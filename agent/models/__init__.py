"""Chat model backends behind one small interface (see ``base``), chosen by a spec string.

Backends are imported lazily by ``load_model`` so that importing this package never pulls in
llama.cpp or the OpenAI SDK for code that only needs the data types.
"""
